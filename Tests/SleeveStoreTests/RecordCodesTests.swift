import SleeveStore
import SleeveTestSupport
import Testing

/// Every code table of `RecordCodes` against the lookup tables a migrated file holds, and the
/// CHECK constraints on the columns that store them.
@Suite("Record codes")
struct RecordCodesTests {
  func lookup(_ table: String, in connection: Connection) throws -> [Int64: String] {
    let statement = try connection.prepare("SELECT code, name FROM \(table)")
    var rows: [Int64: String] = [:]
    while try statement.step() { rows[statement.int64(at: 0)] = statement.text(at: 1) ?? "" }
    return rows
  }

  func table<Code: RecordCode>(_: Code.Type) -> [Int64: String] {
    Dictionary(uniqueKeysWithValues: Code.allCases.map { ($0.rawValue, $0.name) })
  }

  @Test("each code table equals the lookup table of a migrated file")
  func codesMatchTheSchema() throws {
    let directory = TemporaryDirectory()
    let connection = try SleeveDatabase.openForWriting(path: directory.path("codes.sqlite"))
    #expect(try lookup("outcome_statuses", in: connection) == table(RecordCodes.Status.self))
    #expect(try lookup("skip_reasons", in: connection) == table(RecordCodes.SkipReason.self))
    #expect(try lookup("flag_states", in: connection) == table(RecordCodes.FlagState.self))
    #expect(try lookup("fire_origins", in: connection) == table(RecordCodes.FireOrigin.self))
  }

  @Test("the columns accept exactly the codes of their tables (variant has no lookup table)")
  func checkConstraintsMatch() throws {
    let directory = TemporaryDirectory()
    let connection = try SleeveDatabase.openForWriting(path: directory.path("codes.sqlite"))
    try connection.execute("PRAGMA foreign_keys = OFF")
    func accepts(_ column: String, _ value: Int64) -> Bool {
      let values = [
        "status": 0, "reason": "NULL", "variant": "NULL", "flag_state": "NULL",
      ].merging([column: value]) { $1 }
      let sql =
        "INSERT INTO outcomes (fire_id, registration_id, status, reason, variant, flag_state, "
        + "is_async, started_ns, duration_ns) VALUES (1, 1, \(values["status"]!), "
        + "\(values["reason"]!), \(values["variant"]!), \(values["flag_state"]!), 0, 0, 0)"
      return (try? connection.execute(sql)) != nil
    }
    let tables: [(String, Set<Int64>)] = [
      ("status", Set(RecordCodes.Status.allCases.map(\.rawValue))),
      ("reason", Set(RecordCodes.SkipReason.allCases.map(\.rawValue))),
      ("variant", Set(RecordCodes.Variant.allCases.map(\.rawValue))),
      ("flag_state", Set(RecordCodes.FlagState.allCases.map(\.rawValue))),
    ]
    for (column, codes) in tables {
      for value in Int64(-1)...7 {
        #expect(accepts(column, value) == codes.contains(value), "\(column) = \(value)")
      }
    }
  }

  @Test("flag change states name the flag_states codes, and a rollout is stored as disabled")
  func flagChangeStates() {
    let codes = RecordCodes.FlagState.allCases.filter { $0 != .unknown }.map(\.name)
    #expect(codes == RecordCodes.FlagChangeState.allCases.filter { $0 != .rollingOut }.map(\.name))
    #expect(
      RecordCodes.FlagChangeState.rollingOut.storedName == RecordCodes.FlagState.disabled.name)
    for state in RecordCodes.FlagChangeState.allCases where state != .rollingOut {
      #expect(RecordCodes.FlagChangeState.storedName(of: state.name) == state.name)
    }
    #expect(RecordCodes.FlagChangeState.storedName(of: "paused") == "paused")
  }

  @Test("session statuses are exactly what the sessions.status CHECK allows")
  func sessionStatusesMatchTheCheck() throws {
    let directory = TemporaryDirectory()
    let connection = try SleeveDatabase.openForWriting(path: directory.path("codes.sqlite"))
    let sql = try #require(
      try connection.scalarText("SELECT sql FROM sqlite_master WHERE name = 'sessions'"))
    let allowed = RecordCodes.SessionStatus.allCases.map(\.sqlLiteral).joined(separator: ", ")
    #expect(sql.contains("CHECK (status IN (\(allowed)))"))
  }

  @Test("an unknown stored code reads as its number, never a trap")
  func unknownCodes() {
    #expect(RecordCodes.name(1, as: RecordCodes.Status.self) == "failed")
    #expect(RecordCodes.name(99, as: RecordCodes.Status.self) == "99")
    #expect(RecordCodes.name(Int64.min, as: RecordCodes.FlagState.self) == "-9223372036854775808")
  }
}
