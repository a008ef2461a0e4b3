/// Deletes the raw fires, outcomes and interactions of old, ended sessions, keeping their
/// summaries (`sleeve prune`), then gives the space back to the file system.
///
/// What stays of a pruned session: its `sessions` row, `session_context`, controls,
/// registrations and their lifetimes (small, and they name its handlers), flags and flag
/// history, and its summaries; `session_summaries.raw_pruned_unix_ns` marks it pruned.
///
/// Crash safety: each session is pruned in one transaction that deletes its raw rows and sets
/// its mark together (an ended session without summaries is summarized first in the same
/// transaction), so after a crash (kill -9, power loss) every session is either pruned and
/// marked or untouched. Space is then reclaimed in place with `VACUUM`, itself one transaction
/// through the write-ahead log: a crash during it leaves the pruned file as it was before it.
/// The file is never replaced by another (a recorder or reader holding it open keeps writing
/// to and reading from the one file). `VACUUM` is skipped while a session of the file is
/// still recording, so a recorder never waits on it; the freed pages are reused by new rows,
/// and a later prune reclaims them.
///
/// ```swift
/// let plan = try RawRowPruner.plan(
///   sessions: ids, policy: .keepLast(20), connection: connection)
/// print(plan.targets.count, plan.rows, plan.estimatedBytes)
/// let result = try RawRowPruner.execute(plan, connection: connection)
/// print(result.before.bytesPerOutcome ?? 0, result.after.bytesPerOutcome ?? 0)
/// ```
public enum RawRowPruner {
  /// One session a plan prunes.
  public struct Target: Equatable, Sendable {
    /// The session id.
    public let session: Int64
    /// When it ended, Unix nanoseconds.
    public let endedUnixNanoseconds: Int64
    /// Whether it has summaries already; one that has none is summarized first.
    public let isSummarized: Bool
    /// Its raw fire rows.
    public let fires: Int64
    /// Its raw outcome rows.
    public let outcomes: Int64
    /// Its raw interaction rows.
    public let interactions: Int64

    /// All its raw rows.
    public var rows: Int64 { fires &+ outcomes &+ interactions }
  }

  /// What a prune would do, read without changing anything (`--dry-run` prints it).
  public struct Plan: Equatable, Sendable {
    /// The sessions it prunes, oldest end first.
    public let targets: [Target]
    /// Selected sessions that have not ended (running or unterminated): never pruned.
    public let notEnded: [Int64]
    /// Selected sessions whose raw rows are already gone.
    public let alreadyPruned: [Int64]
    /// Selected ended sessions the policy keeps (too new, or among the newest).
    public let kept: [Int64]
    /// About how many bytes the targets' raw rows take (their share of the pages of fires,
    /// outcomes and interactions): what reclaiming should give back.
    public let estimatedBytes: Int64
    /// The file now.
    public let footprint: DatabaseFootprint

    /// The raw rows it deletes.
    public var rows: Int64 { targets.reduce(0) { $0 &+ $1.rows } }
    /// The targets that are summarized first, in the transaction that prunes them.
    public var summarizedFirst: [Int64] {
      targets.filter { !$0.isSummarized }.map(\.session)
    }
  }

  /// What became of the freed space.
  public enum Reclaim: Equatable, Sendable {
    /// `VACUUM` rebuilt the file and its log was truncated.
    case vacuumed
    /// Nothing to reclaim: the file had no free pages.
    case nothingToReclaim
    /// Skipped because these sessions are recording into the file (their writers must not
    /// wait on a rebuild); prune again once they end.
    case skippedWhileRecording([Int64])
    /// Not asked for (`reclaimSpace: false`).
    case notAsked
  }

  /// What a prune did.
  public struct Result: Equatable, Sendable {
    /// The sessions pruned, as planned.
    public let pruned: [Target]
    /// The pruned sessions that were summarized first.
    public let summarizedFirst: [Int64]
    /// Planned sessions left alone because the file changed since the plan (pruned by another
    /// run, or deleted).
    public let changedSincePlan: [Int64]
    /// The file before and after.
    public let before: DatabaseFootprint
    /// The file after pruning and reclaiming.
    public let after: DatabaseFootprint
    /// What became of the freed space.
    public let reclaim: Reclaim

    /// The raw rows deleted.
    public var rowsDeleted: Int64 { pruned.reduce(0) { $0 &+ $1.rows } }
  }

  /// Plans a prune of `sessions` (the selection) under `policy`, reading only.
  ///
  /// - Parameters:
  ///   - sessions: The selected session ids; only ended ones are considered.
  ///   - policy: Which of them lose their raw rows.
  ///   - connection: Any connection to the file (a read-only one for a dry run).
  /// - Throws: `SQLiteError` when a read fails.
  public static func plan(sessions: [Int64], policy: RetentionPolicy, connection: Connection)
    throws -> Plan
  {
    let footprint = try DatabaseFootprint.measure(connection)
    let states = try SummaryTables.states(connection: connection)
    let row = try connection.prepare(
      """
      SELECT status = \(RecordCodes.SessionStatus.ended.sqlLiteral),
        coalesce(ended_unix_ns, heartbeat_unix_ns) FROM sessions
      WHERE id = ?
      """)
    var ended: [(session: Int64, end: Int64)] = []
    var notEnded: [Int64] = []
    for session in Set(sessions).sorted() {
      row.reset()
      try row.bind(session, at: 1)
      guard try row.step() else { continue }
      if row.int64(at: 0) != 0 {
        ended.append((session, row.int64(at: 1)))
      } else {
        notEnded.append(session)
      }
    }
    ended.sort { ($0.end, $0.session) < ($1.end, $1.session) }
    let chosen: ArraySlice<(session: Int64, end: Int64)>
    switch policy {
    case .endedBefore(let cutoff):
      chosen = ended.prefix { $0.end < cutoff }
    case .keepLast(let count):
      chosen = ended.dropLast(max(count, 0))
    }
    let chosenIDs = Set(chosen.map(\.session))
    var targets: [Target] = []
    var alreadyPruned: [Int64] = []
    for (session, end) in chosen {
      if states[session]?.isPruned == true {
        alreadyPruned.append(session)
        continue
      }
      targets.append(
        Target(
          session: session, endedUnixNanoseconds: end, isSummarized: states[session] != nil,
          fires: try count("fires", session: session, connection: connection),
          outcomes: try count("outcomes", session: session, connection: connection),
          interactions: try count("interactions", session: session, connection: connection)))
    }
    return Plan(
      targets: targets, notEnded: notEnded, alreadyPruned: alreadyPruned,
      kept: ended.map(\.session).filter { !chosenIDs.contains($0) },
      estimatedBytes: try estimateBytes(of: targets, connection: connection, footprint: footprint),
      footprint: footprint)
  }

  /// Prunes the plan's targets, one transaction each, then reclaims the space.
  ///
  /// Each target is checked again inside its transaction: one pruned or removed since the
  /// plan is left alone (``Result/changedSincePlan``).
  ///
  /// - Parameters:
  ///   - plan: A plan of the same file.
  ///   - connection: A connection opened for writing (`SleeveDatabase.openForWriting`).
  ///   - reclaimSpace: Whether to run `VACUUM` afterwards (when no session is recording).
  ///   - unixNanoseconds: The time to record as the prune (and summary) time.
  ///   - progress: Called after each session with the number pruned so far.
  /// - Throws: `StoreError.corrupt` for a session summarized first whose outcome has a
  ///   duration that is not an integer, `SQLiteError` when a write fails (a lock held past
  ///   the busy timeout, a full disk); sessions pruned before the failure stay pruned.
  public static func execute(
    _ plan: Plan, connection: Connection, reclaimSpace: Bool = true,
    unixNanoseconds: Int64 = WallClock.unixNanoseconds(), progress: (Int) -> Void = { _ in }
  ) throws -> Result {
    let before = try DatabaseFootprint.measure(connection)
    var pruned: [Target] = []
    var summarizedFirst: [Int64] = []
    var changed: [Int64] = []
    // Foreign keys are not enforced while pruning: with them, deleting a fire looks for the
    // outcomes that name it, and no index covers outcomes.fire_id, so each deleted fire would
    // scan every outcome left in the file (hours for a large file). Nothing can dangle: a
    // session's outcomes are deleted (in the same transaction, before its fires) by the same
    // id range as its fires, and nothing else refers to fires, outcomes or interactions.
    let foreignKeys = try connection.scalarInt("PRAGMA foreign_keys") ?? 0
    if foreignKeys != 0 { try connection.execute("PRAGMA foreign_keys = OFF") }
    defer { if foreignKeys != 0 { try? connection.execute("PRAGMA foreign_keys = ON") } }
    for target in plan.targets {
      let done = try connection.transaction { () throws -> Bool in
        guard try isEnded(target.session, connection: connection) else { return false }
        let state = try SummaryTables.state(of: target.session, connection: connection)
        if state?.isPruned == true { return false }
        if state == nil {
          try SummaryTables.summarize(
            session: target.session, connection: connection, unixNanoseconds: unixNanoseconds)
          summarizedFirst.append(target.session)
        }
        // Checked first: summaries that are about to be the session's only record.
        try SummaryTables.markPruned(
          session: target.session, unixNanoseconds: unixNanoseconds, connection: connection)
        try deleteRawRows(of: target.session, connection: connection)
        return true
      }
      if done { pruned.append(target) } else { changed.append(target.session) }
      progress(pruned.count)
    }
    let reclaim = reclaimSpace ? try reclaim(connection) : .notAsked
    return Result(
      pruned: pruned, summarizedFirst: summarizedFirst, changedSincePlan: changed,
      before: before, after: try DatabaseFootprint.measure(connection), reclaim: reclaim)
  }

  /// Rebuilds the file in place when it has free pages and nothing records into it.
  private static func reclaim(_ connection: Connection) throws -> Reclaim {
    let recording = try recordingSessions(connection)
    guard recording.isEmpty else { return .skippedWhileRecording(recording) }
    guard (try connection.scalarInt("PRAGMA freelist_count") ?? 0) > 0 else {
      return .nothingToReclaim
    }
    try connection.execute("VACUUM")
    // The rebuilt pages are in the log; copying them back truncates the file, and truncating
    // the log gives its bytes back too. Best effort: a reader still on the old pages keeps the
    // log until it finishes (the next checkpoint shrinks it).
    _ = try? connection.scalarText("PRAGMA wal_checkpoint(TRUNCATE)")
    return .vacuumed
  }

  /// The sessions whose writers are alive (``SessionLiveness/running``).
  static func recordingSessions(_ connection: Connection) throws -> [Int64] {
    let statement = try connection.prepare(
      """
      SELECT id, status, host, pid, heartbeat_unix_ns FROM sessions
      WHERE status <> \(RecordCodes.SessionStatus.ended.sqlLiteral)
      """)
    var running: [Int64] = []
    while try statement.step() {
      let liveness = SessionLiveness.classify(
        status: statement.text(at: 1) ?? "", host: statement.text(at: 2) ?? "",
        pid: statement.int64(at: 3), heartbeatUnixNanoseconds: statement.int64(at: 4))
      if liveness == .running { running.append(statement.int64(at: 0)) }
    }
    return running
  }

  private static func isEnded(_ session: Int64, connection: Connection) throws -> Bool {
    let statement = try connection.prepare(
      "SELECT status = \(RecordCodes.SessionStatus.ended.sqlLiteral) FROM sessions WHERE id = ?")
    try statement.bind(session, at: 1)
    return try statement.step() && statement.int64(at: 0) != 0
  }

  /// The raw tables, children first (outcomes refer to fires).
  static let rawTables = ["outcomes", "interactions", "fires"]

  private static func deleteRawRows(of session: Int64, connection: Connection) throws {
    guard let ids = RowID.range(of: session) else { return }
    // Each rollout outcome's share goes with its outcome (Migrations/0007).
    let rollouts = try connection.prepare(
      "DELETE FROM outcome_rollouts WHERE outcome_id BETWEEN ? AND ?")
    try rollouts.bind(ids.lowerBound, at: 1)
    try rollouts.bind(ids.upperBound, at: 2)
    try rollouts.run()
    for table in rawTables {
      let statement = try connection.prepare("DELETE FROM \(table) WHERE id BETWEEN ? AND ?")
      try statement.bind(ids.lowerBound, at: 1)
      try statement.bind(ids.upperBound, at: 2)
      try statement.run()
    }
  }

  private static func count(_ table: String, session: Int64, connection: Connection) throws
    -> Int64
  {
    guard let ids = RowID.range(of: session) else { return 0 }
    let statement = try connection.prepare(
      "SELECT count(*) FROM \(table) WHERE id BETWEEN ? AND ?")
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    _ = try statement.step()
    return statement.int64(at: 0)
  }

  /// Each raw table's bytes (its pages, from `dbstat`) times the targets' share of its rows.
  /// Without `dbstat` (a SQLite built without it), the file's bytes times the targets' share
  /// of all raw rows.
  private static func estimateBytes(
    of targets: [Target], connection: Connection, footprint: DatabaseFootprint
  ) throws -> Int64 {
    guard !targets.isEmpty else { return 0 }
    let share: [String: Int64] = [
      "fires": targets.reduce(0) { $0 &+ $1.fires },
      "outcomes": targets.reduce(0) { $0 &+ $1.outcomes },
      "interactions": targets.reduce(0) { $0 &+ $1.interactions },
    ]
    var estimate = 0.0
    var allRows = 0.0
    var dbstat = true
    for table in rawTables {
      let rows = Double(try connection.scalarInt("SELECT count(*) FROM \(table)") ?? 0)
      allRows += rows
      guard rows > 0, dbstat else { continue }
      do {
        let bytes = Double(
          try connection.scalarInt(
            "SELECT total(pgsize) FROM dbstat WHERE name = '\(table)' AND schema = 'main'") ?? 0)
        estimate += bytes * Double(share[table] ?? 0) / rows
      } catch {
        dbstat = false
      }
    }
    if !dbstat, allRows > 0 {
      let targetRows = Double(targets.reduce(0) { $0 &+ $1.rows })
      estimate = Double(footprint.bytes) * targetRows / allRows
    }
    // Finite and at least 0; a sum past Int64 (never on a real file) reads as the most.
    return estimate < 9.2e18 ? Int64(estimate.rounded()) : .max
  }
}
