import SleeveCore
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveRecorder

/// Row ids are `session << 32 | n` with n numbered per session (issue 10, item 16): a
/// long-lived process never wraps them, and a file out of session ids refuses new sessions.
@MainActor
@Suite("Per-session row numbers")
struct RowNumberingTests {
  @Test(
    "each session numbers its controls, handlers, fires and outcomes from 1, whatever the process fired before"
  )
  func numbersStartAtOnePerSession() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("numbers.sqlite")
    let recorder = try await Recorder(path: path)
    for round in 0..<2 {
      let session = try await recorder.startSession(name: "round \(round)")
      let child = Button(name: "child \(round)")
      child.on(.touchUpInside, id: "leaf") { _ in }
      let parent = Button(name: "parent \(round)")
      parent.on(.touchUpInside, id: "relay") { _ in child.sendActions(for: .touchUpInside) }
      session.attach(child)
      session.attach(parent)
      for _ in 0..<(round == 0 ? 50 : 3) { parent.sendActions(for: .touchUpInside) }
      try await session.end()
    }
    let db = try Inspector(path: path)
    // The second session's rows, numbered from 1 in the order they reached the writer.
    let second = try #require(try db.int("SELECT id FROM sessions WHERE name = 'round 1'"))
    func numbers(_ sql: String) throws -> [String] {
      try db.rows(sql.replacingOccurrences(of: "$S", with: String(second)))
    }
    #expect(
      try numbers("SELECT id & 4294967295 FROM controls WHERE id >> 32 = $S ORDER BY id") == [
        "1", "2",
      ])
    #expect(
      try numbers("SELECT id & 4294967295 FROM registrations WHERE id >> 32 = $S ORDER BY id") == [
        "1", "2",
      ])
    #expect(
      try numbers(
        """
        SELECT (id & 4294967295) || ':' || coalesce(parent_fire_id & 4294967295, '-')
        FROM fires WHERE id >> 32 = $S ORDER BY id
        """) == ["1:-", "2:1", "3:-", "4:3", "5:-", "6:5"])
    #expect(
      try numbers("SELECT id & 4294967295 FROM outcomes WHERE id >> 32 = $S ORDER BY id")
        == ["1", "2", "3", "4", "5", "6"])
    // Every outcome points at a fire and a handler of its own session.
    #expect(
      try db.count(
        "outcomes o JOIN fires f ON f.id = o.fire_id JOIN registrations r ON r.id = o.registration_id",
        where: "o.id >> 32 = f.id >> 32 AND r.session_id = o.id >> 32") == 106)
  }

  @Test("startSession refuses cleanly when the file has no session ids left (2^31 - 1 taken)")
  func startSessionRefusesWithoutSessionIDs() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("full.sqlite")
    try SleeveDatabase.openForWriting(path: path).execute(
      """
      INSERT INTO sessions (id, uuid, name, started_unix_ns, heartbeat_unix_ns, status, durability,
        host, pid, os, runtime, sleeve_version, sqlite_version)
      VALUES (\(RowID.sessions.upperBound), 'u', 'last', 0, 0, 'ended', 'batched', 'h', 1, 'os',
        'swift', '0', '0')
      """)
    let recorder = try Recorder(path: path)
    let error = try #require(throws: RecorderError.self) {
      try recorder.startSession(name: "one too many")
    }
    guard case .store(.noSessionIDsLeft(path: path)) = error else {
      Issue.record("expected noSessionIDsLeft, got \(error)")
      return
    }
    #expect(error.description.contains("no session ids left"))
    #expect(try Inspector(path: path).count("sessions") == 1)
  }

  @Test("a session's numbers end at 2^32 - 1: the next row is refused and counted, never wrapped")
  func numbersNeverWrap() {
    var session = WriterSession(
      rowID: RowID.sessions.upperBound, startedMonotonicNanoseconds: 0, startedUnixNanoseconds: 0)
    let first: UInt64 = 1_000
    #expect(session.parentFireRowID(first) == nil)  // nothing numbered yet
    #expect(session.fireRowID(first) == RowID.make(session: RowID.sessions.upperBound, number: 1))
    #expect(session.fireRowID(first + 4_294_967_294) == .max)
    #expect(session.fireRowID(first + 4_294_967_295) == nil)
    #expect(session.fireRowID(.max) == nil)
    #expect(session.parentFireRowID(first - 1) == nil)  // before the session: no parent row
    #expect(session.parentFireRowID(0) == nil)
    session.outcomeSequence = RowID.numbers.upperBound - 1
    #expect(session.nextOutcomeRowID() == .max)
    #expect(session.nextOutcomeRowID() == nil)
    #expect(session.outcomeSequence == RowID.numbers.upperBound)
    session.refuse()
    #expect(session.failedEvents == 1)
    #expect(session.lastError == WriterSession.outOfNumbers)
    #expect(session.lastError?.contains("4294967295") == true)
  }

  @Test("a control or handler keeps its number in every copy of the session's state")
  func numbersAreSharedAcrossCopies() {
    let session = WriterSession(rowID: 3, startedMonotonicNanoseconds: 0, startedUnixNanoseconds: 0)
    let staged = session  // the writer stages a copy per batch; a failed batch drops it
    #expect(staged.controlRowID(77) == RowID.make(session: 3, number: 1))
    #expect(staged.registrationRowID(9) == RowID.make(session: 3, number: 1))
    #expect(session.controlRowID(78) == RowID.make(session: 3, number: 2))
    #expect(session.controlRowID(77) == RowID.make(session: 3, number: 1))
  }
}
