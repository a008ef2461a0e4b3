import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

/// `sleeve prune`'s engine: raw rows of old ended sessions go, their summaries stay exactly.
@Suite("Raw row pruner")
struct RawRowPrunerTests {
  /// Every summary row of the file, blobs included, as stored.
  static func summaryRows(_ connection: Connection) throws -> [[SQLValue]] {
    var rows: [[SQLValue]] = []
    for sql in [
      "SELECT * FROM outcome_summaries ORDER BY registration_id, variant",
      "SELECT * FROM failure_summaries ORDER BY registration_id, variant, error_type, pattern",
      "SELECT session_id, summarized_unix_ns, fires, outcomes FROM session_summaries ORDER BY 1",
    ] {
      let statement = try connection.prepare(sql)
      while try statement.step() {
        rows.append((0..<statement.columnCount).map { statement.value(at: $0) })
      }
    }
    return rows
  }

  /// A session's rows in a table whose ids are `session << 32 | n`.
  static func rows(_ table: String, session: Int64, _ connection: Connection) throws -> Int64 {
    try connection.scalarInt(
      "SELECT count(*) FROM \(table) WHERE id BETWEEN \(session << 32) AND \(session << 32 | 0xFFFF_FFFF)"
    ) ?? -1
  }

  @Test("pruning deletes the raw rows and keeps every summary byte for byte, and the handlers")
  func keepsSummariesExactly() throws {
    let fixture = try FixtureDatabase.standard()
    let connection = fixture.connection
    _ = try SessionSummarizer.summarize(sessions: [1, 2], rebuild: false, connection: connection)
    let summaries = try Self.summaryRows(connection)
    let plan = try RawRowPruner.plan(
      sessions: [1, 2], policy: .keepLast(1), connection: connection)
    #expect(plan.targets.map(\.session) == [1] && plan.kept == [2])
    #expect(plan.targets.first?.outcomes == 26 && plan.targets.first?.fires == 26)
    let result = try RawRowPruner.execute(plan, connection: connection, unixNanoseconds: 42)
    #expect(result.pruned.map(\.session) == [1] && result.rowsDeleted == 52)
    #expect(try Self.summaryRows(connection) == summaries)
    for table in ["fires", "outcomes", "interactions"] {
      #expect(try Self.rows(table, session: 1, connection) == 0)
    }
    #expect(try Self.rows("outcomes", session: 2, connection) == 3)
    #expect(try Self.rows("registrations", session: 1, connection) == 2)
    #expect(try Self.rows("controls", session: 1, connection) == 2)
    #expect(try connection.scalarInt("SELECT count(*) FROM flags WHERE session_id = 1") == 1)
    #expect(try SummaryTables.state(of: 1, connection: connection)?.rawPrunedUnixNanoseconds == 42)
    #expect(try SummaryTables.state(of: 2, connection: connection)?.isPruned == false)
    #expect(try connection.scalarText("PRAGMA integrity_check") == "ok")
    #expect(try connection.scalarInt("PRAGMA foreign_key_check") == nil)
    // Enforcement is off only while pruning (it would scan every outcome per deleted fire).
    #expect(try connection.scalarInt("PRAGMA foreign_keys") == 1)
  }

  @Test("an ended session without summaries is summarized first, in the transaction pruning it")
  func summarizesFirst() throws {
    let fixture = try FixtureDatabase.standard()
    let built = try OutcomeSummaries.build(session: 1, connection: fixture.connection)
    let plan = try RawRowPruner.plan(
      sessions: [1], policy: .keepLast(0), connection: fixture.connection)
    #expect(plan.summarizedFirst == [1])
    let result = try RawRowPruner.execute(plan, connection: fixture.connection)
    #expect(result.summarizedFirst == [1])
    #expect(try SummaryTables.read(session: 1, connection: fixture.connection) == built)
    #expect(try SummaryTables.state(of: 1, connection: fixture.connection)?.outcomes == 26)
  }

  @Test(
    "the policy picks by end time: keep-last keeps the newest, raw-older-than the recent ones",
    arguments: [
      (RetentionPolicy.keepLast(2), [Int64(3), 1]),
      (.keepLast(0), [3, 1, 4, 2]),
      (.keepLast(9), []),
      // Ends: 3 at 1_700_000_002, 1 at …102, 4 at …202, 2 at …302 (seconds).
      (.endedBefore(unixNanoseconds: 1_700_000_150_000_000_000), [3, 1]),
      (.endedBefore(unixNanoseconds: 1_700_000_002_000_000_000), []),
    ])
  func policyPicksByEndTime(policy: RetentionPolicy, expected: [Int64]) throws {
    let fixture = try FixtureDatabase()
    for (id, started) in [(1, 100), (2, 300), (3, 0), (4, 200)] as [(Int64, Int64)] {
      try fixture.session(id, name: "s\(id)", startedSeconds: 1_700_000_000 + started)
    }
    try fixture.session(5, name: "live", startedSeconds: 1_600_000_000, status: "running")
    let plan = try RawRowPruner.plan(
      sessions: [1, 2, 3, 4, 5], policy: policy, connection: fixture.connection)
    #expect(plan.targets.map(\.session) == expected)
    #expect(plan.notEnded == [5])
  }

  @Test("a plan only reads: the file's bytes are the same after it")
  func planChangesNothing() throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let before = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
    let reader = try SleeveDatabase.openForReading(path: fixture.path)
    let plan = try RawRowPruner.plan(sessions: [1, 2], policy: .keepLast(0), connection: reader)
    #expect(plan.rows == 58 && plan.estimatedBytes > 0)
    #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.path)) == before)
    #expect(try reader.scalarInt("SELECT count(*) FROM outcomes") == 29)
  }

  @Test("pruning 200,000 outcomes shrinks the file by at least 90%")
  func shrinksTheFile() async throws {
    // Seconds of inserts and a VACUUM: on a thread of its own, off the cooperative pool.
    let (plan, result, fileBytes) = try await OffThePool.run {
      try Self.pruneLargeFile()
    }
    #expect(result.reclaim == .vacuumed)
    #expect(result.before.outcomes == 200_000 && result.after.outcomes == 200_000)
    let ratio = Double(result.after.bytes) / Double(result.before.bytes)
    #expect(ratio <= 0.10, "kept \(result.after.bytes) of \(result.before.bytes) bytes (seed 15)")
    #expect(result.after.bytes == fileBytes)
    // The estimate is the raw rows' share of their tables' pages: close to what was given back.
    let freed = Double(result.before.bytes - result.after.bytes)
    #expect(abs(Double(plan.estimatedBytes) - freed) <= 0.2 * freed)
  }

  /// Four sessions of 50,000 outcomes, pruned: the plan, the result and the file's bytes after.
  static func pruneLargeFile() throws -> (RawRowPruner.Plan, RawRowPruner.Result, Int64) {
    let fixture = try FixtureDatabase()
    var random = SeededGenerator(seed: 15)
    for session: Int64 in 1...4 {
      try fixture.session(session, name: "run \(session)", startedSeconds: 1_700_000_000 + session)
      for handler: Int64 in 1...5 {
        try fixture.handler(session: session, number: handler, name: "h\(handler)", control: "c")
        try fixture.samples(
          session: session, handler: handler,
          (0..<10_000).map { _ in
            FixtureDatabase.Sample(Int64.random(in: 1_000...50_000_000, using: &random))
          })
      }
    }
    let plan = try RawRowPruner.plan(
      sessions: [1, 2, 3, 4], policy: .keepLast(0), connection: fixture.connection)
    let result = try RawRowPruner.execute(plan, connection: fixture.connection)
    return (plan, result, DatabaseFootprint.fileBytes(fixture.path))
  }

  @Test("space is not reclaimed while a session records into the file; a later prune does it")
  func noVacuumWhileRecording() throws {
    let fixture = try FixtureDatabase.standard()
    // Enough rows that pruning them frees whole pages.
    try fixture.samples(
      session: 2, handler: 1, (0..<5_000).map { FixtureDatabase.Sample(Int64($0)) })
    let now = WallClock.unixNanoseconds()
    try fixture.connection.execute(
      """
      INSERT INTO sessions (id, uuid, name, started_unix_ns, heartbeat_unix_ns, status,
        durability, host, pid, os, runtime, sleeve_version, sqlite_version)
      VALUES (3, 'live', 'live', \(now), \(now), 'running', 'batched',
        '\(SessionLiveness.localHostName())', \(getpid()), 'os', 'Swift', '0', '3')
      """)
    let plan = try RawRowPruner.plan(
      sessions: [1, 2, 3], policy: .keepLast(0), connection: fixture.connection)
    #expect(plan.notEnded == [3])
    let result = try RawRowPruner.execute(plan, connection: fixture.connection)
    #expect(result.reclaim == .skippedWhileRecording([3]))
    #expect((try fixture.connection.scalarInt("PRAGMA freelist_count") ?? 0) > 0)
    try fixture.connection.execute("UPDATE sessions SET status = 'ended' WHERE id = 3")
    let later = try RawRowPruner.execute(
      try RawRowPruner.plan(sessions: [3], policy: .keepLast(1), connection: fixture.connection),
      connection: fixture.connection)
    #expect(later.pruned.isEmpty && later.reclaim == .vacuumed)
    #expect(try fixture.connection.scalarInt("PRAGMA freelist_count") == 0)
  }

  @Test("a session pruned since the plan was made is left alone and named")
  func stalePlan() throws {
    let fixture = try FixtureDatabase.standard()
    let plan = try RawRowPruner.plan(
      sessions: [1, 2], policy: .keepLast(0), connection: fixture.connection)
    let first = try RawRowPruner.execute(plan, connection: fixture.connection, unixNanoseconds: 1)
    let second = try RawRowPruner.execute(plan, connection: fixture.connection, unixNanoseconds: 2)
    #expect(first.pruned.count == 2 && second.pruned.isEmpty)
    #expect(second.changedSincePlan == [1, 2])
    #expect(
      try SummaryTables.state(of: 1, connection: fixture.connection)?.rawPrunedUnixNanoseconds == 1)
    let replanned = try RawRowPruner.plan(
      sessions: [1, 2], policy: .keepLast(0), connection: fixture.connection)
    #expect(replanned.targets.isEmpty && replanned.alreadyPruned == [1, 2])
  }
}
