import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveStore

/// Migration 0002 (`session << 40 | n` becomes `session << 32 | n`) and the session-id limits.
@Suite("Row-id migration and session-id limits")
struct RowIDMigrationTests {
  /// A file with only 0001 applied, as the previous Sleeve wrote it.
  static func oldFile(_ directory: TemporaryDirectory) throws -> Connection {
    let connection = try Connection(path: directory.path("old.sqlite"))
    try Migrator.migrate(connection, migrations: Array(SchemaMigrations.all.prefix(1)))
    return connection
  }

  static func addSession(_ id: Int64, to connection: Connection, uuid: String? = nil) throws {
    try connection.execute(
      """
      INSERT INTO sessions (id, uuid, name, started_unix_ns, ended_unix_ns, heartbeat_unix_ns,
        status, durability, host, pid, os, runtime, sleeve_version, sqlite_version)
      VALUES (\(id), '\(uuid ?? "00000000-0000-0000-0000-\(String(format: "%012d", id))")',
        's\(id)', 0, 1, 1, 'ended', 'batched', 'h', 1, 'os', 'swift', '0', '0')
      """)
  }

  /// Rows of `session` in 0001's layout: control n 5, registration 7, fires 9 and 10 (10 a
  /// child of 9), an outcome of fire 10, and an outcome whose fire row was lost (fire 11).
  static func addOldRows(session: Int64, to connection: Connection) throws {
    let base = session << 40
    try connection.execute(
      """
      INSERT INTO controls VALUES (\(base | 5), \(session), 'pay', 'Button');
      INSERT INTO registrations (id, session_id, control_id, events, kind, handler, is_async,
        site, registered_at_ns) VALUES (\(base | 7), \(session), \(base | 5), 64, 'closure',
        'charge', 0, 'A.swift:1', 0);
      INSERT INTO fires VALUES (\(base | 9), \(base | 5), 64, 0, NULL, 1, 0),
        (\(base | 10), \(base | 5), 64, 1, \(base | 9), 2, 1);
      INSERT INTO outcomes (id, fire_id, registration_id, status, is_async, started_ns,
        duration_ns) VALUES (\(base | 1), \(base | 10), \(base | 7), 0, 0, 1, 5),
        (\(base | 2), \(base | 11), \(base | 7), 1, 0, 2, 6);
      """)
  }

  @Test(
    "0002 rewrites 0001's ids to session << 32 | n, keeping every number and reference (sessions 1 and 256, whose new and old ids meet, and orphaned outcomes too)"
  )
  func rewritesOldIDs() throws {
    let directory = TemporaryDirectory()
    let connection = try Self.oldFile(directory)
    try connection.execute("PRAGMA foreign_keys = OFF")  // the orphan, as a lost write leaves it
    for session in [Int64(1), 256] {
      try Self.addSession(session, to: connection)
      try Self.addOldRows(session: session, to: connection)
    }
    try connection.execute("PRAGMA foreign_keys = ON")
    #expect(
      try Migrator.migrate(connection) == [
        "0002_row_ids", "0003_run_context", "0004_interactions", "0005_summaries",
        "0006_summary_rollups", "0007_rollouts", "0008_deliveries", "0009_summary_checksums",
      ])
    for session in [Int64(1), 256] {
      let base = session << 32
      #expect(
        try connection.scalarText(
          "SELECT group_concat(id) FROM controls WHERE session_id = \(session)")
          == String(base | 5))
      #expect(
        try connection.scalarText(
          "SELECT id || ',' || control_id FROM registrations WHERE session_id = \(session)")
          == "\(base | 7),\(base | 5)")
      #expect(
        try connection.scalarText(
          """
          SELECT group_concat(id || ':' || control_id || ':' || coalesce(parent_fire_id, '-'), ' ')
          FROM (SELECT * FROM fires WHERE id >> 32 = \(session) ORDER BY id)
          """) == "\(base | 9):\(base | 5):- \(base | 10):\(base | 5):\(base | 9)")
      #expect(
        try connection.scalarText(
          """
          SELECT group_concat(id || ':' || fire_id || ':' || registration_id, ' ')
          FROM (SELECT * FROM outcomes WHERE id >> 32 = \(session) ORDER BY id)
          """) == "\(base | 1):\(base | 10):\(base | 7) \(base | 2):\(base | 11):\(base | 7)")
    }
    #expect(try connection.scalarInt("SELECT count(*) FROM outcomes") == 4)
    #expect(try connection.scalarInt("PRAGMA foreign_keys") == 1)
  }

  @Test(
    "0002 refuses a file holding a number of 2^32 or more (or a session part below 1), clearly and changing nothing",
    arguments: [
      "INSERT INTO fires VALUES ((1 << 40) | (1 << 32), (1 << 40) | 5, 64, 0, NULL, 1, 0)",
      "UPDATE outcomes SET registration_id = (1 << 40) | 4294967296 WHERE id = (1 << 40) | 1",
      "INSERT INTO controls VALUES (77, 1, 'zero session', 'Button')",
      "INSERT INTO controls VALUES (-5, 1, 'negative', 'Button')",
    ])
  func refusesIDsThatDoNotFit(misfit: String) throws {
    let directory = TemporaryDirectory()
    let connection = try Self.oldFile(directory)
    try connection.execute("PRAGMA foreign_keys = OFF")
    try Self.addSession(1, to: connection)
    try Self.addOldRows(session: 1, to: connection)
    try connection.execute(misfit)
    let before = try Self.dump(connection)
    let error = try #require(throws: StoreError.self) { try Migrator.migrate(connection) }
    guard case .migrationRefused(_, let migration, _) = error else {
      Issue.record("expected migrationRefused, got \(error)")
      return
    }
    #expect(migration == "0002_row_ids")
    #expect(error.description.contains("does not fit session << 32 | number"))
    #expect(error.description.contains("the file is unchanged"))
    #expect(!error.description.contains("\n"))
    #expect(try Self.dump(connection) == before)
    #expect(
      try Migrator.state(of: connection).pending == [
        "0002_row_ids", "0003_run_context", "0004_interactions", "0005_summaries",
        "0006_summary_rollups", "0007_rollouts", "0008_deliveries", "0009_summary_checksums",
      ])
  }

  @Test(
    "the next session id is one past the highest, and none is left once 2^31 - 1 (or anything beyond, up to Int64.max) is taken",
    arguments: [
      (Int64?.none, Int64?.some(1)), (5, 6), (2_147_483_646, 2_147_483_647),
      (2_147_483_647, nil), (Int64.max, nil), (-3, 1),
    ] as [(Int64?, Int64?)])
  func nextSessionID(highest: Int64?, next: Int64?) throws {
    let directory = TemporaryDirectory()
    let connection = try SleeveDatabase.openForWriting(path: directory.path("db.sqlite"))
    if let highest { try Self.addSession(highest, to: connection) }
    #expect(try SessionIDs.next(in: connection) == next)
  }

  @Test("merge refuses cleanly when the output has no session ids left, keeping what it had")
  func mergeRefusesWhenOutOfSessionIDs() throws {
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    try Self.addSession(RowID.sessions.upperBound, to: target)
    let input = try FixtureDatabase.standard()
    let error = try #require(throws: StoreError.self) {
      try SessionMerger(target: target).merge(path: input.path, includeUnterminated: false)
    }
    #expect(error == .noSessionIDsLeft(path: target.path))
    #expect(error.description.contains("no session ids left"))
    #expect(try target.scalarInt("SELECT count(*) FROM sessions") == 1)
    #expect(try target.scalarInt("SELECT count(*) FROM outcomes") == 0)
  }

  @Test(
    "the highest session (2^31 - 1) merges whole, its last row id being Int64.max, in chunks that never step past it"
  )
  func highestSessionMergesWhole() throws {
    let input = try FixtureDatabase()
    let session = RowID.sessions.upperBound
    try input.session(session, name: "last", uuidNumber: 1)
    try input.handler(session: session, number: 1, name: "tap", control: "button")
    try input.outcomes(session: session, handler: 1, durations: [1, 2, 3])
    try input.connection.execute(
      "UPDATE outcomes SET id = \(Int64.max) WHERE id = (SELECT max(id) FROM outcomes)")
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    try Self.addSession(RowID.sessions.upperBound - 1, to: target)  // the copy gets 2^31 - 1
    // Chunks span ids, not rows: the default chunk walks this session's 2^32 ids in 16,384 steps.
    let report = try SessionMerger(target: target).merge(
      path: input.path, includeUnterminated: false)
    #expect(report.outcomes == 3)
    #expect(try target.scalarInt("SELECT max(id) FROM outcomes") == Int64.max)
    #expect(try target.scalarInt("SELECT count(*) FROM fires WHERE id >> 32 = \(session)") == 3)
  }

  @Test("a session id a file cannot own rows under (Int64.max) merges as its row alone")
  func outOfRangeSessionMergesItsRow() throws {
    let input = try FixtureDatabase()
    try input.session(.max, name: "hostile", uuidNumber: 9)
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    let report = try SessionMerger(target: target).merge(
      path: input.path, includeUnterminated: false)
    #expect(report.copied == ["hostile"])
    #expect(try target.scalarInt("SELECT id FROM sessions") == 1)
  }

  @Test("merge keys sessions by UUID case-insensitively: upper case in one input is the same")
  func mergeMatchesUUIDsInAnyCase() throws {
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    let uuid = "ABCDEF01-2345-4678-9ABC-DEF012345678"
    let lower = try FixtureDatabase()
    try lower.session(1, name: "s")
    try lower.connection.execute("UPDATE sessions SET uuid = '\(uuid.lowercased())'")
    let upper = try FixtureDatabase()
    try upper.session(1, name: "s")
    try upper.connection.execute("UPDATE sessions SET uuid = '\(uuid)'")
    let merger = SessionMerger(target: target)
    #expect(try merger.merge(path: lower.path, includeUnterminated: false).copied == ["s"])
    #expect(try merger.merge(path: upper.path, includeUnterminated: false).alreadyPresent == 1)
    #expect(try target.scalarInt("SELECT count(*) FROM sessions") == 1)
  }

  @Test(
    "liveness never traps on a heartbeat a file can hold: Int64.min is stale, Int64.max is not",
    arguments: [(Int64.min, SessionLiveness.unterminated), (Int64.max, .running)])
  func livenessOfExtremeHeartbeats(heartbeat: Int64, expected: SessionLiveness) {
    let liveness = SessionLiveness.classify(
      status: "running", host: "elsewhere", pid: 1, heartbeatUnixNanoseconds: heartbeat,
      now: 1_700_000_000_000_000_000, localHost: "here", isAlive: { _ in true })
    #expect(liveness == expected)
  }

  static func dump(_ connection: Connection) throws -> [String] {
    try ["controls", "registrations", "fires", "outcomes"].map { table in
      try connection.scalarText(
        "SELECT group_concat(id, ',') FROM (SELECT id FROM \(table) ORDER BY id)")
        ?? ""
    }
  }
}
