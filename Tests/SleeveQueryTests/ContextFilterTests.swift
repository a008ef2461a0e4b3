import Foundation
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

/// The filters on where sessions ran: commit, branch, test, tag and `--last`.
@Suite("Context filters")
struct ContextFilterTests {
  /// Six sessions: 1–3 on main (commits aaaa1111…, bbbb2222…), 4–5 on a branch, 6 with none.
  static func history() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    let rows: [(Int64, String?, String?, String?, [String])] = [
      (1, "aaaa1111ffff", "main", "CheckoutTests/submit()", ["smoke"]),
      (2, "aaaa1111ffff", "main", "CheckoutTests/cancel()", []),
      (3, "bbbb2222eeee", "main", "CheckoutTests/submit()", []),
      (4, "cccc3333dddd", "feature/pay", "CheckoutTests/submit()", ["smoke"]),
      (5, "CCCC3333DDDD", "feature/pay", "PaymentTests/charge()", []),
    ]
    for (id, commit, branch, test, tags) in rows {
      try fixture.session(id, name: "run \(id)", startedSeconds: 1_700_000_000 + id)
      try fixture.context(
        session: id, commit: commit, branch: branch, testID: test, testTags: tags)
    }
    try fixture.session(6, name: "local", startedSeconds: 1_700_000_010)
    try fixture.connection.execute("UPDATE sessions SET tags_json = '[\"nightly\"]' WHERE id = 6")
    return fixture
  }

  static func ids(_ filter: QueryFilter, in fixture: FixtureDatabase) throws -> [Int64] {
    try QueryDatabase(path: fixture.path).sessions(matching: filter).map(\.id)
  }

  static func filter(_ change: (inout QueryFilter) -> Void) -> QueryFilter {
    var filter = QueryFilter()
    filter.session = .all
    change(&filter)
    return filter
  }

  @Test("--commit matches the full id or a prefix of 4+ characters, in any case")
  func commitPrefix() throws {
    let fixture = try Self.history()
    #expect(try Self.ids(Self.filter { $0.commit = "aaaa1111ffff" }, in: fixture) == [1, 2])
    #expect(try Self.ids(Self.filter { $0.commit = "AAAA" }, in: fixture) == [1, 2])
    #expect(try Self.ids(Self.filter { $0.commit = "cccc3" }, in: fixture) == [4, 5])
    // Three characters are too few to be a prefix: only an exact id matches them.
    #expect(throws: QueryError.self) {
      try Self.ids(Self.filter { $0.commit = "aaa" }, in: fixture)
    }
  }

  @Test("--branch is exact, --test globs the test id, --tag matches session or test tags")
  func branchTestTag() throws {
    let fixture = try Self.history()
    #expect(try Self.ids(Self.filter { $0.branch = "main" }, in: fixture) == [1, 2, 3])
    #expect(throws: QueryError.self) {
      try Self.ids(Self.filter { $0.branch = "mai" }, in: fixture)
    }
    #expect(
      try Self.ids(Self.filter { $0.testGlob = "CheckoutTests/submit*" }, in: fixture) == [1, 3, 4])
    #expect(try Self.ids(Self.filter { $0.tag = "smoke" }, in: fixture) == [1, 4])
    #expect(try Self.ids(Self.filter { $0.tag = "nightly" }, in: fixture) == [6])
  }

  @Test("--last N is the N most recent sessions the other filters allow, oldest first")
  func lastN() throws {
    let fixture = try Self.history()
    #expect(
      try Self.ids(Self.filter { $0.limit = 2 }, in: fixture) == [5, 6])
    #expect(
      try Self.ids(
        Self.filter {
          $0.limit = 2
          $0.branch = "main"
        }, in: fixture) == [2, 3])
    #expect(
      try Self.ids(
        Self.filter {
          $0.limit = 50
          $0.branch = "main"
        }, in: fixture) == [1, 2, 3])
  }

  @Test("a tag column that is not a JSON array of strings matches no tag, never fails")
  func damagedTags() throws {
    let fixture = try Self.history()
    try fixture.connection.execute(
      """
      UPDATE sessions SET tags_json = '{"smoke": "smoke"}' WHERE id = 1;
      UPDATE sessions SET tags_json = 'not json' WHERE id = 2;
      UPDATE session_context SET test_tags_json = '"smoke"' WHERE session_id = 1;
      UPDATE session_context SET test_tags_json = '[1, ["smoke"]]' WHERE session_id = 4
      """)
    #expect(throws: QueryError.self) { try Self.ids(Self.filter { $0.tag = "smoke" }, in: fixture) }
    #expect(try Self.ids(Self.filter { $0.tag = "nightly" }, in: fixture) == [6])
  }

  @Test("sessions carry their context; a session with no context row has none")
  func contextRead() throws {
    let fixture = try Self.history()
    let sessions = try QueryDatabase(path: fixture.path).sessions(matching: Self.filter { _ in })
    #expect(sessions[0].context.run.commit == "aaaa1111ffff")
    #expect(sessions[0].context.run.branch == "main")
    #expect(sessions[0].context.testTags == ["smoke"])
    #expect(sessions[0].context.test == "CheckoutTests/submit()")
    #expect(sessions[5].context == SessionContext())
  }

  @Test(
    "a file from before 0003 is read untouched, its sessions without context, and says why --branch matches nothing"
  )
  func olderFileReads() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("0002.sqlite")
    let connection = try Connection(path: path)
    try Migrator.migrate(connection, migrations: Array(SchemaMigrations.all.prefix(2)))
    try connection.execute(
      """
      INSERT INTO sessions (id, uuid, name, started_unix_ns, heartbeat_unix_ns, status,
        durability, host, pid, os, runtime, sleeve_version, sqlite_version)
      VALUES (1, '00000000-0000-0000-0000-000000000001', 'old', 1, 1, 'ended', 'batched', 'h',
        1, 'os', 'Swift 6.3', '0.1.0', '3.40.1')
      """)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let database = try QueryDatabase(path: path)
    let sessions = try database.sessions(matching: Self.filter { _ in })
    #expect(sessions.map(\.id) == [1])
    #expect(sessions[0].context == SessionContext())
    let error = try #require(throws: QueryError.self) {
      try database.sessions(matching: Self.filter { $0.branch = "main" })
    }
    #expect(error.description.contains("no session in this file records a branch"))
    #expect(error.description.contains("SLEEVE_BRANCH"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(
      try Migrator.state(of: connection).pending == [
        "0003_run_context", "0004_interactions", "0005_summaries", "0006_summary_rollups",
        "0007_rollouts", "0008_deliveries", "0009_summary_checksums",
      ])
  }

  @Test("a file at 0003 missing session_context is damaged (65), not read as older")
  func droppedTableIsDamage() throws {
    let fixture = try Self.history()
    try fixture.connection.execute("DROP TABLE session_context")
    let error = try #require(throws: QueryError.self) { try QueryDatabase(path: fixture.path) }
    #expect(error.description.contains("table 'session_context' is missing"))
  }
}
