/// Copies sessions from other Sleeve databases into one, keyed by session UUID: a session
/// already present and ended is skipped, so merging the same file twice adds nothing; one
/// copied before it ended (with `includeUnterminated`) is copied again in full.
///
/// Each session is copied in one transaction with `INSERT … SELECT` through `ATTACH` (SQLite
/// streams the rows: memory stays flat for any session size), its row ids rewritten to the
/// target's session number (`session << 32 | n`, keeping n). Flag definitions, the session's flag
/// history and its `session_context` row (where it ran, which test it recorded) come with it;
/// command-line flag changes are copied once each, and quarantine entries are united (an entry
/// the target already has, same handler and control, is kept as it is).
///
/// An input lacking only add-only migrations (``SchemaMigrations/addOnlyTables``, e.g. a file at
/// 0002 without `session_context` and `quarantine`) merges as if those tables were empty.
///
/// ```swift
/// let merger = try SessionMerger(target: SleeveDatabase.openForWriting(path: "all.sqlite"))
/// let report = try merger.merge(path: "runner-1.sqlite", includeUnterminated: false)
/// ```
public final class SessionMerger {
  /// What one input contributed.
  public struct Report: Equatable, Sendable {
    /// The input file.
    public let path: String
    /// Sessions copied, by name.
    public var copied: [String] = []
    /// Sessions whose earlier copy had not ended, copied again in full, by name.
    public var refreshed: [String] = []
    /// Sessions already present (same UUID) and ended there.
    public var alreadyPresent = 0
    /// Sessions left out because they had not ended.
    public var notEnded = 0
    /// Outcomes copied.
    public var outcomes = 0
    /// Command-line flag changes copied.
    public var flagChanges = 0
    /// Quarantine entries copied (entries the target already had are not counted).
    public var quarantineEntries = 0
    /// Lint suppressions copied (suppressions the target already had are not counted).
    public var lintSuppressions = 0
  }

  private let target: Connection
  private let chunk: Int64
  /// The input being merged, as given (error messages name it).
  private var inputPath = ""

  /// A merger into `target` (a writable, migrated Sleeve database).
  public convenience init(target: Connection) {
    self.init(target: target, chunk: 1 << 18)
  }

  /// A merger that copies `chunk` ids per statement (tests use small chunks).
  init(target: Connection, chunk: Int64) {
    self.target = target
    self.chunk = max(chunk, 1)
  }

  /// Copies every ended session of the database at `path` (and running or unterminated ones
  /// when asked) that `target` does not have yet.
  ///
  /// - Parameters:
  ///   - progress: Called as the copy advances: after every 262,144 outcome ids of a session
  ///     and once each session is done (or skipped).
  /// - Throws: `StoreError` for an input that is not a Sleeve database or is from a newer
  ///   Sleeve (nothing is copied from it), `StoreError.corrupt` naming the input, the table
  ///   and the row for a value every reader refuses (a rollout share outside 0...10,000, a
  ///   damaged stage or flag threshold: copied as it is never, repaired never; the sessions
  ///   before it stay copied), `StoreError.noSessionIDsLeft` when the target
  ///   cannot take another session (what was copied before stays); `SQLiteError` for I/O
  ///   failures.
  public func merge(
    path: String, includeUnterminated: Bool, progress: (Progress) -> Void = { _ in }
  ) throws -> Report {
    let input = try SleeveDatabase.openForReading(path: path)  // refuses newer, foreign files
    inputPath = path
    let state = try Migrator.state(of: input)
    var report = Report(path: path)
    if state.applied.isEmpty { return report }  // an empty file: nothing recorded
    // Tables a file lacks only by add-only migrations read as empty; anything older is refused.
    guard state.pending.allSatisfy(SchemaMigrations.addOnlyTables.contains) else {
      throw MergeError.olderSchema(path: path)
    }
    let attach = try target.prepare("ATTACH DATABASE ? AS input")
    try attach.bind(path, at: 1)
    try attach.run()
    // Copy rows as they are: an input whose fire rows were lost to a failed write still merges,
    // with its orphaned outcomes, as export and queries read them.
    try target.execute("PRAGMA foreign_keys = OFF")
    do {
      try copySessions(
        from: path, includeUnterminated: includeUnterminated, into: &report, progress)
    } catch {
      try? target.execute("PRAGMA foreign_keys = ON")
      try? target.execute("DETACH DATABASE input")
      throw error
    }
    try target.execute("PRAGMA foreign_keys = ON")
    try target.execute("DETACH DATABASE input")
    return report
  }

  private func copySessions(
    from path: String, includeUnterminated: Bool, into report: inout Report,
    _ progress: (Progress) -> Void
  ) throws {
    guard try !attachedSameFile() else { throw MergeError.inputIsOutput(path: path) }
    let sessions = try inputSessions()
    for (index, session) in sessions.enumerated() {
      func reportProgress(_ fraction: Double) {
        progress(Progress(session: index + 1, sessions: sessions.count, fraction: fraction))
      }
      defer { reportProgress(1) }
      guard includeUnterminated || session.status == RecordCodes.SessionStatus.ended.name else {
        report.notEnded += 1
        continue
      }
      let existing = try targetSession(uuid: session.uuid)
      if let existing {
        // Replace an earlier copy only with a more complete one: ended, or heard from later.
        let newer =
          existing.status != RecordCodes.SessionStatus.ended.name
          && (session.status == RecordCodes.SessionStatus.ended.name
            || session.heartbeat > existing.heartbeat)
        guard newer else {
          report.alreadyPresent += 1
          continue
        }
      }
      report.outcomes += try copy(session, replacing: existing?.id, progress: reportProgress)
      if existing == nil {
        report.copied.append(session.name)
      } else {
        report.refreshed.append(session.name)
      }
    }
    report.flagChanges = try copyCommandLineFlagChanges()
    report.quarantineEntries = try copyQuarantine()
    report.lintSuppressions = try copyLintSuppressions()
  }

  /// Whether the attached input has `table` (a file lacking an add-only migration lacks its
  /// tables, which then read as empty).
  private func inputHas(_ table: String) throws -> Bool {
    let statement = try target.prepare(
      "SELECT 1 FROM input.sqlite_master WHERE type = 'table' AND name = ?")
    try statement.bind(table, at: 1)
    return try statement.step()
  }

  /// Whether `input` and `main` are one file (SQLite reports both by absolute path).
  private func attachedSameFile() throws -> Bool {
    let statement = try target.prepare("PRAGMA database_list")
    var files: [String: String] = [:]
    while try statement.step() {
      files[statement.text(at: 1) ?? ""] = statement.text(at: 2) ?? ""
    }
    return files["main"] != nil && files["main"] != "" && files["main"] == files["input"]
  }

  private struct InputSession {
    let id: Int64
    let uuid: String
    let name: String
    let status: String
    let heartbeat: Int64
  }

  private func inputSessions() throws -> [InputSession] {
    let statement = try target.prepare(
      """
      SELECT id, uuid, name, status, heartbeat_unix_ns FROM input.sessions
      ORDER BY started_unix_ns, id
      """)
    var sessions: [InputSession] = []
    while try statement.step() {
      sessions.append(
        InputSession(
          id: statement.int64(at: 0), uuid: statement.text(at: 1) ?? "",
          name: statement.text(at: 2) ?? "", status: statement.text(at: 3) ?? "",
          heartbeat: statement.int64(at: 4)))
    }
    return sessions
  }

  /// The lowest and highest id of `table` in `ids` in the input, or `nil` when it has none
  /// (each found with one primary-key seek).
  private func idBounds(table: String, key: String = "id", ids: ClosedRange<Int64>) throws
    -> (Int64, Int64)?
  {
    var found: [Int64] = []
    for aggregate in ["min", "max"] {
      let statement = try target.prepare(
        "SELECT \(aggregate)(\(key)) FROM input.\(table) WHERE \(key) BETWEEN ? AND ?")
      try statement.bind(ids.lowerBound, at: 1)
      try statement.bind(ids.upperBound, at: 2)
      guard try statement.step(), let value = statement.optionalInt64(at: 0) else { return nil }
      found.append(value)
    }
    return (found[0], found[1])
  }

  /// The target's copy of the session with `uuid`, if any (UUIDs compare case-insensitively,
  /// so a session written in upper case by one input is the same session in another).
  private func targetSession(uuid: String) throws -> (
    id: Int64, status: String, heartbeat: Int64
  )? {
    let statement = try target.prepare(
      "SELECT id, status, heartbeat_unix_ns FROM main.sessions WHERE lower(uuid) = lower(?)")
    try statement.bind(uuid, at: 1)
    guard try statement.step() else { return nil }
    return (statement.int64(at: 0), statement.text(at: 1) ?? "", statement.int64(at: 2))
  }

  /// Deletes every row of the target's session `id`.
  private func deleteTargetSession(_ id: Int64) throws {
    let ranged = [
      ("outcome_rollouts", "outcome_id"), ("outcomes", "id"), ("interactions", "id"),
      ("fires", "id"),
      ("registration_lifetimes", "registration_id"), ("registrations", "id"), ("controls", "id"),
    ]
    for (table, key) in ranged {
      guard let ids = RowID.range(of: id) else { break }  // a session that owns no ids
      let statement = try target.prepare(
        "DELETE FROM main.\(table) WHERE \(key) BETWEEN ? AND ?")
      try statement.bind(ids.lowerBound, at: 1)
      try statement.bind(ids.upperBound, at: 2)
      try statement.run()
    }
    try SummaryTables.delete(session: id, connection: target)
    let rollouts = try target.prepare(
      """
      DELETE FROM main.flag_rollouts
      WHERE flag_event_id IN (SELECT id FROM main.flag_events WHERE session_id = ?)
      """)
    try rollouts.bind(id, at: 1)
    try rollouts.run()
    for table in [
      "flags", "flag_events", "session_context", "flag_rollout_plans", "flag_rollout_stages",
      "flag_check_severities",
    ] {
      let statement = try target.prepare("DELETE FROM main.\(table) WHERE session_id = ?")
      try statement.bind(id, at: 1)
      try statement.run()
    }
    let statement = try target.prepare("DELETE FROM main.sessions WHERE id = ?")
    try statement.bind(id, at: 1)
    try statement.run()
  }

  /// How far a merge has come.
  public struct Progress: Equatable, Sendable {
    /// The session being copied, counted from 1.
    public let session: Int
    /// The input's sessions.
    public let sessions: Int
    /// How much of that session's outcomes is copied, 0 to 1.
    public let fraction: Double
  }

  /// Copies one session in one transaction, first deleting the target's earlier copy
  /// `replacing` when given; returns the outcomes copied.
  ///
  /// The id-ranged copies run in chunks of closed id ranges between the lowest and highest id
  /// present (so the outcomes copy can report progress), never computing a bound past the
  /// session's last id (which is `Int64.max` for the highest session).
  private func copy(
    _ session: InputSession, replacing: Int64?, progress: (Double) -> Void
  ) throws -> Int {
    // Deferred: the input is only read, so it must not be write-locked while its recorder runs.
    try target.transaction(deferred: true) {
      try requireReadableFlags(of: session.id)
      if let replacing { try deleteTargetSession(replacing) }
      guard let newID = try replacing ?? SessionIDs.next(in: target) else {
        throw StoreError.noSessionIDsLeft(path: target.path)
      }
      let insertSession = try target.prepare(
        """
        INSERT INTO main.sessions (id, uuid, name, tags_json, started_unix_ns, ended_unix_ns,
          heartbeat_unix_ns, status, durability, dropped_events, failed_events, write_errors,
          last_error, host, pid, os, runtime, sleeve_version, sqlite_version, metadata_json)
        SELECT ?2, uuid, name, tags_json, started_unix_ns, ended_unix_ns, heartbeat_unix_ns, status,
          durability, dropped_events, failed_events, write_errors, last_error, host, pid, os,
          runtime, sleeve_version, sqlite_version, metadata_json
        FROM input.sessions WHERE id = ?1
        """)
      try insertSession.bind(session.id, at: 1)
      try insertSession.bind(newID, at: 2)
      try copyingRow("sessions", session.id) { try insertSession.run() }
      // A session id outside RowID.sessions owns no rows: its row alone is copied.
      guard let ids = RowID.range(of: session.id), let shift = RowID.range(of: newID)?.lowerBound
      else { return 0 }
      let mask = RowID.numberMask
      var ranged = [
        (
          "controls",
          """
          INSERT INTO main.controls (id, session_id, name, kind)
          SELECT ?3 | (id & ?4), ?5, name, kind FROM input.controls WHERE id BETWEEN ?1 AND ?2
          """
        ),
        (
          "registrations",
          """
          INSERT INTO main.registrations (id, session_id, control_id, events, kind, handler,
            identifier, flag_key, is_async, anchor_type, site, registered_at_ns, removed_at_ns,
            removal_reason)
          SELECT ?3 | (id & ?4), ?5, ?3 | (control_id & ?4), events, kind, handler, identifier,
            flag_key, is_async, anchor_type, site, registered_at_ns, removed_at_ns, removal_reason
          FROM input.registrations WHERE id BETWEEN ?1 AND ?2
          """
        ),
        (
          "fires",
          """
          INSERT INTO main.fires (id, control_id, events, origin, parent_fire_id, depth, at_ns)
          SELECT ?3 | (id & ?4), ?3 | (control_id & ?4), events, origin,
            CASE WHEN parent_fire_id IS NULL THEN NULL ELSE ?3 | (parent_fire_id & ?4) END,
            depth, at_ns
          FROM input.fires WHERE id BETWEEN ?1 AND ?2
          """
        ),
        (
          "outcomes",
          """
          INSERT INTO main.outcomes (id, fire_id, registration_id, status, reason, variant,
            flag_state, is_async, started_ns, duration_ns, error_type, error_message)
          SELECT ?3 | (id & ?4), ?3 | (fire_id & ?4), ?3 | (registration_id & ?4), status,
            reason, variant, flag_state, is_async, started_ns, duration_ns, error_type,
            error_message
          FROM input.outcomes WHERE id BETWEEN ?1 AND ?2
          """
        ),
      ]
      if try inputHas("interactions") { ranged += Self.copyInteractionData }
      let hasRollouts = try inputHas("outcome_rollouts")
      if hasRollouts { ranged.append(Self.copyOutcomeRollouts) }
      let summarized = try inputHas("session_summaries") && inputSummarized(session.id)
      if summarized { ranged += Self.copySummaryData }
      let checksummed = try summarized && inputHas("summary_checksums")
      var outcomes = 0
      for (table, sql) in ranged {
        let key = Self.rangeKeys[table] ?? "id"
        guard let (first, last) = try idBounds(table: table, key: key, ids: ids) else {
          continue
        }
        let statement = try target.prepare(sql)
        func run(_ start: Int64, _ end: Int64) throws {
          statement.reset()
          // Numbered parameters: a statement counts up to the highest number it uses.
          let values = [start, end, shift, mask, newID]
          for position in 0..<Int(statement.parameterCount) {
            try statement.bind(values[position], at: Int32(position + 1))
          }
          try statement.run()
        }
        var start = first
        while true {
          // Closed chunks: `end` never passes `last`, so nothing is computed past Int64.max.
          let end = last - start < chunk ? last : start + (chunk - 1)
          try refusingBrokenRows(
            table,
            candidates:
              "SELECT DISTINCT \(key) FROM input.\(table) WHERE \(key) BETWEEN ?1 AND ?2 ORDER BY \(key)",
            [start, end], probe: { try run($0, $0) }
          ) { try run(start, end) }
          if table == "outcomes" {
            outcomes += Int(target.changes)
            progress((Double(end) - Double(first) + 1) / (Double(last) - Double(first) + 1))
          }
          if end == last { break }
          start = end + 1
        }
      }
      for (table, sql) in [
        (
          "flags",
          """
          INSERT INTO main.flags (session_id, key, owner, max_error_rate, max_p99_ns, min_samples)
          SELECT ?1, key, owner, max_error_rate, max_p99_ns, min_samples
          FROM input.flags WHERE session_id = ?2
          """
        )
      ] + (hasRollouts ? Self.copyRolloutPlans : [])
        + (try inputHas("session_context") ? [("session_context", Self.copyContext)] : [])
        + (summarized ? [("session_summaries", Self.copySummaryMark)] : [])
        + (checksummed ? [("summary_checksums", Self.copySummaryChecksums)] : [])
      {
        // Each statement ends with its `WHERE session_id = ?2`: the probe narrows it to a row.
        let statement = try target.prepare(sql)
        let probe = try target.prepare(sql + " AND rowid = ?3")
        try refusingBrokenRows(
          table,
          candidates: "SELECT rowid FROM input.\(table) WHERE session_id = ?1 ORDER BY rowid",
          [session.id],
          probe: { row in
            probe.reset()
            try probe.bind([.integer(newID), .integer(session.id), .integer(row)])
            try probe.run()
          }
        ) {
          try statement.bind(newID, at: 1)
          try statement.bind(session.id, at: 2)
          try statement.run()
        }
      }
      try copyFlagEvents(of: session.id, to: newID, withRollouts: hasRollouts)
      if summarized {
        // A damaged summary is refused, never carried on: checked against the checksums that
        // came with it, or (an input from before 0009) as such a file is read, then sealed.
        try SummaryTables.checkCopy(
          session: newID, from: inputPath, inputSession: session.id, withChecksums: checksummed,
          connection: target)
        try SummaryRollups.update(afterSummarizing: newID, connection: target)
      }
      // An ended session from a file without summaries is summarized as it lands.
      if !summarized && session.status == RecordCodes.SessionStatus.ended.name {
        try SummaryTables.summarize(
          session: newID, connection: target, unixNanoseconds: WallClock.unixNanoseconds())
      }
      return outcomes
    }
  }

  /// Tables whose rows are ranged by another column than `id`.
  private static let rangeKeys: [String: String] = [
    "registration_lifetimes": "registration_id", "outcome_summaries": "registration_id",
    "failure_summaries": "registration_id", "outcome_rollouts": "outcome_id",
  ]

  /// Copies a session's flag events in order, each rollout's share with it (its event gets a
  /// new id here, so the share follows the copied row, not the input's id).
  ///
  /// - Throws: `StoreError.corrupt` naming the input's `flag_rollouts` row for a share every
  ///   reader refuses: it is never clamped into one that serves.
  private func copyFlagEvents(of input: Int64, to newID: Int64, withRollouts: Bool) throws {
    let read = try target.prepare(
      withRollouts
        ? """
        SELECT e.key, e.state, e.reason, e.actor, e.at_unix_ns, e.at_ns, r.basis_points, e.id
        FROM input.flag_events e LEFT JOIN input.flag_rollouts r ON r.flag_event_id = e.id
        WHERE e.session_id = ? ORDER BY e.id
        """
        : """
        SELECT key, state, reason, actor, at_unix_ns, at_ns, NULL, id FROM input.flag_events
        WHERE session_id = ? ORDER BY id
        """)
    try read.bind(input, at: 1)
    let insert = try target.prepare(
      """
      INSERT INTO main.flag_events (session_id, key, state, reason, actor, at_unix_ns, at_ns)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """)
    while try read.step() {
      let share = try readShare(read, at: 6, event: read.int64(at: 7), key: read.text(at: 0))
      let event = read.int64(at: 7)
      insert.reset()
      try insert.bind([.integer(newID)] + (Int32(0)..<6).map { read.value(at: $0) })
      try copyingRow("flag_events", event) { try insert.run() }
      guard let share else { continue }
      try copyingRow("flag_rollouts", event) {
        try RolloutRecords.recordRollout(
          event: target.lastInsertRowID, basisPoints: share, connection: target)
      }
    }
  }

  /// The share of the input's flag event `event` (of flag `key`) at `column`, as every reader
  /// reads it.
  ///
  /// - Throws: `StoreError.corrupt` naming the input's `flag_rollouts` row for a share outside
  ///   0...10,000 or not an integer.
  private func readShare(_ statement: Statement, at column: Int32, event: Int64, key: String?)
    throws -> Int?
  {
    try namingRow("flag_rollouts", event) {
      try RolloutRecords.basisPoints(
        statement, at: column, what: "flag '\(key ?? "")'", path: inputPath)
    }
  }

  /// Checks what a reader checks of session `session`'s flag definitions and rollout stages
  /// (and of its outcome rollout shares) in the input, before any of it is copied.
  ///
  /// - Throws: `StoreError.corrupt` naming the input, the table and the row of the first value
  ///   a reader refuses (`FlagLedger.Definition(reading:…)`, `RolloutRecords.stage(…)`,
  ///   `RolloutRecords.basisPoints(…)`): a merge never turns damage into a decision.
  private func requireReadableFlags(of session: Int64) throws {
    let flags = try target.prepare(
      """
      SELECT rowid, key, owner, max_error_rate, max_p99_ns, min_samples FROM input.flags
      WHERE session_id = ? ORDER BY rowid
      """)
    try flags.bind(session, at: 1)
    while try flags.step() {
      _ = try namingRow("flags", flags.int64(at: 0)) {
        try FlagLedger.Definition(
          reading: flags, from: 2, key: flags.text(at: 1) ?? "", path: inputPath)
      }
    }
    guard try inputHas("flag_rollout_stages") else { return }
    let stages = try target.prepare(
      """
      SELECT rowid, key, basis_points, min_samples FROM input.flag_rollout_stages
      WHERE session_id = ? ORDER BY key, position
      """)
    try stages.bind(session, at: 1)
    var previous: (key: String, share: Int)?
    while try stages.step() {
      let key = stages.text(at: 1) ?? ""
      let stage = try namingRow("flag_rollout_stages", stages.int64(at: 0)) {
        try RolloutRecords.stage(
          stages, at: 2, after: previous?.key == key ? previous?.share : nil,
          what: "a stage of flag '\(key)'", path: inputPath)
      }
      previous = (key, stage.basisPoints)
    }
    guard let ids = RowID.range(of: session) else { return }
    // Only a share a reader would refuse is read back (one range scan of the session's rows).
    let shares = try target.prepare(
      """
      SELECT outcome_id, basis_points FROM input.outcome_rollouts
      WHERE outcome_id BETWEEN ? AND ?
        AND NOT (typeof(basis_points) = 'integer' AND basis_points BETWEEN ? AND ?)
      ORDER BY outcome_id LIMIT 1
      """)
    try shares.bind(ids.lowerBound, at: 1)
    try shares.bind(ids.upperBound, at: 2)
    try shares.bind(RolloutRecords.shares.lowerBound, at: 3)
    try shares.bind(RolloutRecords.shares.upperBound, at: 4)
    if try shares.step() {
      _ = try namingRow("outcome_rollouts", shares.int64(at: 0)) {
        try RolloutRecords.basisPoints(shares, at: 1, what: "an outcome", path: inputPath)
      }
    }
  }

  /// Runs `copy`, a statement copying rows of the input's `table`. When a row breaks a
  /// constraint of the target's schema (CHECK, NOT NULL, UNIQUE: an input written past its own
  /// schema), finds the first such row by running `probe` on each row `candidates` (a query
  /// bound to `values`) returns, alone, and refuses the input naming it: 65, never SQLite's
  /// raw message as an I/O error. What the probes copied goes with the transaction's rollback.
  ///
  /// - Throws: `StoreError.corrupt` naming the input, `table`, the row and the constraint.
  private func refusingBrokenRows(
    _ table: String, candidates: String, _ values: [Int64], probe: (Int64) throws -> Void,
    _ copy: () throws -> Void
  ) throws {
    do {
      try copy()
    } catch let error as SQLiteError where error.primaryCode == SQLiteError.constraint {
      let rows = try target.prepare(candidates)
      try rows.bind(values.map { SQLValue.integer($0) })
      var found: [Int64] = []
      while try rows.step() { found.append(rows.int64(at: 0)) }
      for row in found {
        do {
          try probe(row)
        } catch let broken as SQLiteError where broken.primaryCode == SQLiteError.constraint {
          throw brokenRow(table, row: row, broken)
        }
      }
      throw brokenRow(table, row: nil, error)
    }
  }

  /// Runs `copy`, which copies row `row` of the input's `table`, refusing the input naming
  /// that row when it breaks a constraint of the target's schema (see `refusingBrokenRows`).
  private func copyingRow(_ table: String, _ row: Int64, _ copy: () throws -> Void) throws {
    do {
      try copy()
    } catch let error as SQLiteError where error.primaryCode == SQLiteError.constraint {
      throw brokenRow(table, row: row, error)
    }
  }

  /// The damage of an input whose row `row` of `table` breaks the constraint `error` names.
  private func brokenRow(_ table: String, row: Int64?, _ error: SQLiteError) -> StoreError {
    .corrupt(
      path: inputPath,
      detail: (row.map { "\(table) row \($0)" } ?? "a row of \(table)")
        + " breaks the schema: \(error.message)")
  }

  /// Runs `body`, naming row `row` of the input's `table` in the damage it reports.
  private func namingRow<Value>(_ table: String, _ row: Int64, _ body: () throws -> Value)
    throws -> Value
  {
    do {
      return try body()
    } catch StoreError.corrupt(let path, let detail) {
      throw StoreError.corrupt(path: path, detail: "\(table) row \(row): \(detail)")
    }
  }

  /// Copies a session's outcome rollout rows (Migrations/0007), ranged by outcome id.
  private static let copyOutcomeRollouts = (
    "outcome_rollouts",
    """
    INSERT INTO main.outcome_rollouts (outcome_id, basis_points, assignment)
    SELECT ?3 | (outcome_id & ?4), basis_points, assignment
    FROM input.outcome_rollouts WHERE outcome_id BETWEEN ?1 AND ?2
    """
  )

  /// Copies a session's rollout plans, stages and check severities (Migrations/0007): `?1` the
  /// target's session id, `?2` the input's.
  private static let copyRolloutPlans = [
    (
      "flag_rollout_plans",
      """
      INSERT INTO main.flag_rollout_plans (session_id, key, unit, salt)
      SELECT ?1, key, unit, salt FROM input.flag_rollout_plans WHERE session_id = ?2
      """
    ),
    (
      "flag_rollout_stages",
      """
      INSERT INTO main.flag_rollout_stages (session_id, key, position, basis_points, min_samples)
      SELECT ?1, key, position, basis_points, min_samples FROM input.flag_rollout_stages
      WHERE session_id = ?2
      """
    ),
    (
      "flag_check_severities",
      """
      INSERT INTO main.flag_check_severities (session_id, key, check_name, severity)
      SELECT ?1, key, check_name, severity FROM input.flag_check_severities WHERE session_id = ?2
      """
    ),
  ]

  /// Whether the input marks session `id` summarized.
  private func inputSummarized(_ id: Int64) throws -> Bool {
    let statement = try target.prepare(
      "SELECT 1 FROM input.session_summaries WHERE session_id = ?")
    try statement.bind(id, at: 1)
    return try statement.step()
  }

  /// Copies a session's summary mark (Migrations/0005): `?1` the target's session id, `?2` the
  /// input's. A pruned session stays pruned: its summaries are all that is left of it.
  private static let copySummaryMark = """
    INSERT INTO main.session_summaries (session_id, summarized_unix_ns, fires, outcomes,
      raw_pruned_unix_ns)
    SELECT ?1, summarized_unix_ns, fires, outcomes, raw_pruned_unix_ns
    FROM input.session_summaries WHERE session_id = ?2
    """

  /// Copies a session's summary checksums (Migrations/0009) as they are (they hold no session
  /// id): `?1` the target's session id, `?2` the input's.
  private static let copySummaryChecksums = """
    INSERT INTO main.summary_checksums (session_id, rows_digest, checksum)
    SELECT ?1, rows_digest, checksum FROM input.summary_checksums WHERE session_id = ?2
    """

  /// Copies a session's summary rows (Migrations/0005) as they are, ranged by registration id:
  /// the blobs hold no ids, so they need no rewriting.
  private static let copySummaryData = [
    (
      "outcome_summaries",
      """
      INSERT INTO main.outcome_summaries (registration_id, variant, ok, failed, owner_released,
        skipped, cancelled, recursion_limit, scale, count, min_ns, max_ns, histogram)
      SELECT ?3 | (registration_id & ?4), variant, ok, failed, owner_released, skipped,
        cancelled, recursion_limit, scale, count, min_ns, max_ns, histogram
      FROM input.outcome_summaries WHERE registration_id BETWEEN ?1 AND ?2
      """
    ),
    (
      "failure_summaries",
      """
      INSERT INTO main.failure_summaries (registration_id, variant, error_type, pattern, count,
        sample_message)
      SELECT ?3 | (registration_id & ?4), variant, error_type, pattern, count, sample_message
      FROM input.failure_summaries WHERE registration_id BETWEEN ?1 AND ?2
      """
    ),
  ]

  /// Copies a session's `session_context` row: `?1` the target's session id, `?2` the input's.
  private static let copyContext = """
    INSERT INTO main.session_context (session_id, ci_system, commit_sha, branch, pull_request,
      pipeline, attempt, job, runner, repository, build_url, test_id, test_name, test_suite,
      test_tags_json, test_result)
    SELECT ?1, ci_system, commit_sha, branch, pull_request, pipeline, attempt, job, runner,
      repository, build_url, test_id, test_name, test_suite, test_tags_json, test_result
    FROM input.session_context WHERE session_id = ?2
    """

  /// Copies a session's interactions and registration lifetimes (Migrations/0004), ranged as
  /// the other rows are: `?1`–`?2` the input's id range, `?3` the target's first id, `?4` the
  /// number mask.
  private static let copyInteractionData = [
    (
      "interactions",
      """
      INSERT INTO main.interactions (id, control_id, gesture, was_enabled, depth, first_fire_id,
        last_fire_id, fire_count, at_ns, ended_ns)
      SELECT ?3 | (id & ?4), ?3 | (control_id & ?4), gesture, was_enabled, depth,
        ?3 | (first_fire_id & ?4), ?3 | (last_fire_id & ?4), fire_count, at_ns, ended_ns
      FROM input.interactions WHERE id BETWEEN ?1 AND ?2
      """
    ),
    (
      "registration_lifetimes",
      """
      INSERT INTO main.registration_lifetimes (registration_id, added_seq, removed_seq,
        replaced_registration_id)
      SELECT ?3 | (registration_id & ?4), added_seq, removed_seq,
        CASE WHEN replaced_registration_id IS NULL THEN NULL
          ELSE ?3 | (replaced_registration_id & ?4) END
      FROM input.registration_lifetimes WHERE registration_id BETWEEN ?1 AND ?2
      """
    ),
  ]

  /// Copies the lint suppressions the target does not have (same check and site, the table's
  /// unique key); the target's own entry, reason and all, is kept.
  private func copyLintSuppressions() throws -> Int {
    try copyMissingRows(
      of: "lint_suppressions", columns: "check_id, site, reason, actor, added_unix_ns")
  }

  /// Copies the quarantine entries the target does not have (same handler and control, the
  /// table's unique key); the target's own entry, reason and all, is kept.
  private func copyQuarantine() throws -> Int {
    try copyMissingRows(of: "quarantine", columns: "control, handler, reason, actor, added_unix_ns")
  }

  /// Copies the rows of a table that belongs to no session and that the target does not have
  /// (its unique key decides: `ON CONFLICT DO NOTHING`), in the input's id order; a row that
  /// breaks a constraint is refused by name (``refusingBrokenRows``).
  /// - Returns: How many rows were copied.
  private func copyMissingRows(of table: String, columns: String) throws -> Int {
    guard try inputHas(table) else { return 0 }
    return try target.transaction(deferred: true) {
      func rows(_ filter: String) throws -> Statement {
        try target.prepare(
          """
          INSERT INTO main.\(table) (\(columns))
          SELECT \(columns) FROM input.\(table)
          WHERE \(filter) ORDER BY id
          ON CONFLICT DO NOTHING
          """)
      }
      let all = try rows("true")
      let one = try rows("id = ?1")
      var copied = 0
      try refusingBrokenRows(
        table, candidates: "SELECT id FROM input.\(table) ORDER BY id", [],
        probe: { row in
          one.reset()
          try one.bind(row, at: 1)
          try one.run()
        }
      ) {
        try all.run()
        copied = Int(target.changes)
      }
      return copied
    }
  }

  /// Copies command-line flag changes (no session) that the target does not have yet (same
  /// flag, state, share, reason, actor and time), each rollout with its share.
  ///
  /// - Throws: `StoreError.corrupt` naming the input's `flag_rollouts` row for a share every
  ///   reader refuses.
  private func copyCommandLineFlagChanges() throws -> Int {
    let withRollouts = try inputHas("flag_rollouts")
    return try target.transaction(deferred: true) {
      let read = try target.prepare(
        withRollouts
          ? """
          SELECT e.key, e.state, e.reason, e.actor, e.at_unix_ns, r.basis_points, e.id
          FROM input.flag_events e LEFT JOIN input.flag_rollouts r ON r.flag_event_id = e.id
          WHERE e.session_id IS NULL ORDER BY e.at_unix_ns, e.id
          """
          : """
          SELECT key, state, reason, actor, at_unix_ns, NULL, id FROM input.flag_events
          WHERE session_id IS NULL ORDER BY at_unix_ns, id
          """)
      let present = try target.prepare(
        """
        SELECT 1 FROM main.flag_events m LEFT JOIN main.flag_rollouts r
          ON r.flag_event_id = m.id
        WHERE m.session_id IS NULL AND m.key = ?1 AND m.state = ?2 AND m.reason IS ?3
          AND m.actor IS ?4 AND m.at_unix_ns = ?5 AND r.basis_points IS ?6
        """)
      let insert = try target.prepare(
        """
        INSERT INTO main.flag_events (session_id, key, state, reason, actor, at_unix_ns, at_ns)
        VALUES (NULL, ?, ?, ?, ?, ?, NULL)
        """)
      var copied = 0
      while try read.step() {
        let share = try readShare(read, at: 5, event: read.int64(at: 6), key: read.text(at: 0))
        let values = (Int32(0)..<5).map { read.value(at: $0) }
        present.reset()
        try present.bind(values + [share.map { .integer(Int64($0)) } ?? .null])
        let isPresent = try present.step()
        present.reset()
        if isPresent { continue }
        let event = read.int64(at: 6)
        insert.reset()
        try insert.bind(values)
        try copyingRow("flag_events", event) { try insert.run() }
        if let share {
          try copyingRow("flag_rollouts", event) {
            try RolloutRecords.recordRollout(
              event: target.lastInsertRowID, basisPoints: share, connection: target)
          }
        }
        copied += 1
      }
      return copied
    }
  }
}

/// Why an input cannot be merged. Each description is one line saying what to do.
public enum MergeError: Error, Equatable, CustomStringConvertible {
  /// The input is the output file itself.
  case inputIsOutput(path: String)
  /// The input has migrations this binary would apply: it was written by an older Sleeve.
  case olderSchema(path: String)

  /// One line naming the file, what is wrong and what to do.
  public var description: String {
    switch self {
    case .inputIsOutput(let path):
      "'\(path)' is the output file itself; pass the output first, then other databases"
    case .olderSchema(let path):
      "'\(path)' has an older schema; run 'sleeve migrate --db \(path)' first, then merge"
    }
  }
}

extension MergeError: CommandFailure {
  /// 64 for an input that is the output itself (the command line names it), 65 for an input
  /// with an older schema.
  public var exitCode: ExitCode {
    switch self {
    case .inputIsOutput: .usage
    case .olderSchema: .dataError
    }
  }
}
