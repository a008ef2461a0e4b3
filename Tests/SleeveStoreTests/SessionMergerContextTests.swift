import SleeveTestSupport
import Testing

@testable import SleeveStore

/// `merge` and migration 0003: `session_context` rows travel with their sessions, quarantine
/// entries are united, and a file at 0002 merges into a 0003 output.
@Suite("Session merger: run context and quarantine")
struct SessionMergerContextTests {
  static func addContext(
    _ fixture: FixtureDatabase, session: Int64, commit: String, test: String? = nil
  ) throws {
    let testSQL = test.map { "'\($0)'" } ?? "NULL"
    try fixture.connection.execute(
      """
      INSERT INTO session_context (session_id, ci_system, commit_sha, branch, test_id,
        test_tags_json, test_result)
      VALUES (\(session), 'github-actions', '\(commit)', 'main', \(testSQL), '["a"]', 'passed')
      """)
  }

  static let contextByUUID = """
    SELECT s.uuid, c.session_id = s.id, c.ci_system, c.commit_sha, c.branch, c.test_id,
      c.test_tags_json, c.test_result
    FROM sessions s LEFT JOIN session_context c ON c.session_id = s.id ORDER BY s.uuid
    """

  func rows(_ connection: Connection, _ sql: String) throws -> [String] {
    let statement = try connection.prepare(sql)
    var rows: [String] = []
    while try statement.step() {
      rows.append(
        (0..<statement.columnCount).map { statement.text(at: $0) ?? "NULL" }.joined(
          separator: "|"))
    }
    return rows
  }

  @Test("each session's context row is copied under the session's new id in the output")
  func copiesContextWithRemappedSessions() throws {
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    let first = try FixtureDatabase()
    try first.session(1, name: "one", uuidNumber: 1)
    try Self.addContext(first, session: 1, commit: "c1", test: "M.T/one()")
    let second = try FixtureDatabase()
    try second.session(1, name: "two", uuidNumber: 2)  // id 1 again: remapped to 2
    try Self.addContext(second, session: 1, commit: "c2")
    try second.session(2, name: "bare", uuidNumber: 3)  // no context row
    let merger = SessionMerger(target: target)
    _ = try merger.merge(path: first.path, includeUnterminated: false)
    _ = try merger.merge(path: second.path, includeUnterminated: false)
    _ = try merger.merge(path: second.path, includeUnterminated: false)  // again: nothing new
    #expect(
      try rows(target, Self.contextByUUID) == [
        "00000000-0000-0000-0000-000000000001|1|github-actions|c1|main|M.T/one()|[\"a\"]|passed",
        "00000000-0000-0000-0000-000000000002|1|github-actions|c2|main|NULL|[\"a\"]|passed",
        "00000000-0000-0000-0000-000000000003|NULL|NULL|NULL|NULL|NULL|NULL|NULL",
      ])
    #expect(try target.scalarInt("SELECT count(*) FROM session_context") == 2)
  }

  @Test("a refreshed session's context replaces its earlier copy instead of adding a second")
  func refreshReplacesContext() throws {
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    let early = try FixtureDatabase()
    try early.session(1, name: "live", status: "running")
    try Self.addContext(early, session: 1, commit: "early")
    let later = try FixtureDatabase()
    try later.session(1, name: "live")
    try Self.addContext(later, session: 1, commit: "later")
    let merger = SessionMerger(target: target)
    _ = try merger.merge(path: early.path, includeUnterminated: true)
    let report = try merger.merge(path: later.path, includeUnterminated: true)
    #expect(report.refreshed == ["live"])
    #expect(try rows(target, "SELECT commit_sha FROM session_context") == ["later"])
  }

  @Test("quarantine entries are united: one already in the output is kept, none duplicated")
  func quarantineUnion() throws {
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    try target.execute(
      """
      INSERT INTO quarantine (control, handler, reason, added_unix_ns)
      VALUES (NULL, 'charge', 'kept from the output', 1)
      """)
    let input = try FixtureDatabase()
    try input.session(1, name: "s")
    try input.connection.execute(
      """
      INSERT INTO quarantine (control, handler, reason, actor, added_unix_ns) VALUES
        (NULL, 'charge', 'from the input', 'ci', 2),
        ('checkout.pay', 'charge', 'only on pay', 'ci', 3),
        (NULL, 'validate', 'flaky', NULL, 4)
      """)
    let merger = SessionMerger(target: target)
    let report = try merger.merge(path: input.path, includeUnterminated: false)
    #expect(report.quarantineEntries == 2)
    let again = try merger.merge(path: input.path, includeUnterminated: false)
    #expect(again.quarantineEntries == 0)
    #expect(
      try rows(
        target,
        """
        SELECT coalesce(control, '*'), handler, reason, coalesce(actor, '-'), added_unix_ns
        FROM quarantine ORDER BY handler, control
        """) == [
          "*|charge|kept from the output|-|1", "checkout.pay|charge|only on pay|ci|3",
          "*|validate|flaky|-|4",
        ])
  }

  @Test("an input at 0002 (no session_context, no quarantine) merges into a 0003 output")
  func mergesA0002Input() throws {
    let old = try FixtureDatabase(migrations: 2)
    try old.addAlpha(as: 1)
    try old.addBeta(as: 2)
    #expect(
      try Migrator.state(of: old.connection).pending == [
        "0003_run_context", "0004_interactions", "0005_summaries", "0006_summary_rollups",
        "0007_rollouts", "0008_deliveries", "0009_summary_checksums",
      ])
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    let report = try SessionMerger(target: target).merge(
      path: old.path, includeUnterminated: false)
    #expect(report.copied == ["alpha", "beta"])
    #expect(report.outcomes == 29)
    #expect(report.quarantineEntries == 0)
    #expect(try target.scalarInt("SELECT count(*) FROM outcomes") == 29)
    #expect(try target.scalarInt("SELECT count(*) FROM session_context") == 0)
    // The input is untouched: still at 0002.
    #expect(
      try Migrator.state(of: old.connection).pending == [
        "0003_run_context", "0004_interactions", "0005_summaries", "0006_summary_rollups",
        "0007_rollouts", "0008_deliveries", "0009_summary_checksums",
      ])
  }

  @Test("an input at 0001 is still refused: it needs 'sleeve migrate' first")
  func refuses0001Input() throws {
    let old = try FixtureDatabase(migrations: 1)
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    #expect(throws: StoreError.self) {
      try SessionMerger(target: target).merge(path: old.path, includeUnterminated: false)
    }
  }
}
