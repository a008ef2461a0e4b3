/// The one home of the rollout tables (`Migrations/0007_rollouts.sql`): how a `rollingOut`
/// state's share is stored beside its `flag_events` row (its name is stored as
/// `RecordCodes.FlagChangeState.storedName` says), how a rollout outcome's share and
/// assignment are stored, and how a definition's plan (unit, salt, stages) and check
/// severities are stored; every value read back is checked.
public enum RolloutRecords {
  /// The shares a rollout can serve, in basis points: 0 (nobody) to 10,000 (everyone). Readers
  /// refuse any other stored value, and so do writers (the tables' CHECK says the same).
  public static let shares: ClosedRange<Int64> = 0...10_000

  /// The statement that marks a flag event (`?1`) as a rollout serving `?2` basis points; every
  /// writer of `flag_rollouts` uses it.
  ///
  /// Its event was just inserted, so a row already holding that id belongs to no event (an
  /// orphan left by a deleted event, which no reader sees): it is replaced, never a UNIQUE
  /// failure. A share outside ``shares`` is refused by the table's CHECK.
  public static let insertFlagRollout = """
    INSERT INTO flag_rollouts (flag_event_id, basis_points) VALUES (?1, ?2)
    ON CONFLICT (flag_event_id) DO UPDATE SET basis_points = excluded.basis_points
    """

  /// Marks flag event `event` as a rollout serving `basisPoints` (``insertFlagRollout``).
  ///
  /// - Throws: `SQLiteError` (a CHECK constraint) for a share outside ``shares``: a writer
  ///   refuses what a reader refuses, it never clamps a share into one that serves.
  public static func recordRollout(event: Int64, basisPoints: Int, connection: Connection)
    throws
  {
    let statement = try connection.prepare(insertFlagRollout)
    try statement.bind(event, at: 1)
    try statement.bind(Int64(basisPoints), at: 2)
    try statement.run()
  }

  /// The share in basis points at `column`, `nil` when NULL.
  ///
  /// - Throws: `StoreError.corrupt` naming `what` for a value that is not an integer in
  ///   ``shares`` (never read as a share that would serve anyone).
  public static func basisPoints(
    _ statement: Statement, at column: Int32, what: String, path: String
  ) throws(StoreError) -> Int? {
    switch statement.value(at: column) {
    case .null: return nil
    case .integer(let value) where shares.contains(value): return Int(value)
    case let value:
      throw .corrupt(path: path, detail: "\(what) has the rollout share \(value.damageText)")
    }
  }

  /// The samples a stage's cohort may need: 1 to a billion.
  public static let stageSamples: ClosedRange<Int64> = 1...1_000_000_000

  /// Reads one stored stage: its share at `column` and its `min_samples` at `column + 1`,
  /// checked as every reader checks it (a share of 1...10,000 basis points above `previous`,
  /// the share of the stage before; samples in ``stageSamples``).
  ///
  /// - Throws: `StoreError.corrupt` naming `what` and the value at fault: a stage serving
  ///   nobody (0 or NULL), samples out of range or not an integer, stages that do not rise.
  public static func stage(
    _ statement: Statement, at column: Int32, after previous: Int?, what: String, path: String
  ) throws(StoreError) -> (basisPoints: Int, minSamples: Int) {
    guard let share = try basisPoints(statement, at: column, what: what, path: path), share > 0
    else {
      throw .corrupt(
        path: path,
        detail: "\(what) has the rollout share \(statement.value(at: column).damageText) "
          + "(a stage serves 1 to 10000 basis points)")
    }
    let samples = statement.value(at: column + 1)
    guard case .integer(let minSamples) = samples, stageSamples.contains(minSamples) else {
      throw .corrupt(path: path, detail: "\(what) has min_samples \(samples.damageText)")
    }
    if let previous, previous >= share {
      throw .corrupt(
        path: path,
        detail: "\(what) does not rise above the stage before (\(previous) then \(share))")
    }
    return (share, Int(minSamples))
  }

  /// A definition's rollout plan and severities as recorded.
  public struct Plan: Equatable, Sendable {
    /// `fire`, `session`, `key:NAME`, or `nil` when none was declared.
    public var unit: String?
    /// The salt.
    public var salt: String
    /// The stages: share in basis points and the samples each cohort needs, in order.
    public var stages: [(basisPoints: Int, minSamples: Int)]
    /// Checks by name (`errorRate`, `p99`, `errorRateVersusOff`, `latencyVersusOff`) and
    /// their severity (`critical`, `advisory`), for those the definition names.
    public var severities: [String: String]

    /// A plan.
    public init(
      unit: String?, salt: String, stages: [(basisPoints: Int, minSamples: Int)],
      severities: [String: String]
    ) {
      self.unit = unit
      self.salt = salt
      self.stages = stages
      self.severities = severities
    }

    /// Equal when every part is.
    public static func == (left: Plan, right: Plan) -> Bool {
      left.unit == right.unit && left.salt == right.salt && left.severities == right.severities
        && left.stages.map(\.basisPoints) == right.stages.map(\.basisPoints)
        && left.stages.map(\.minSamples) == right.stages.map(\.minSamples)
    }
  }

  /// Replaces session `session`'s plan of flag `key` with `plan`. A plan row is written even
  /// for a plan with nothing to say, so the latest definition wins over an older one's stages.
  public static func replacePlan(
    _ plan: Plan, key: String, session: Int64, connection: Connection
  ) throws {
    for table in ["flag_rollout_plans", "flag_rollout_stages", "flag_check_severities"] {
      let delete = try connection.prepare(
        "DELETE FROM \(table) WHERE session_id = ? AND key = ?")
      try delete.bind(session, at: 1)
      try delete.bind(key, at: 2)
      try delete.run()
    }
    let insert = try connection.prepare(
      "INSERT INTO flag_rollout_plans (session_id, key, unit, salt) VALUES (?, ?, ?, ?)")
    try insert.bind(session, at: 1)
    try insert.bind(key, at: 2)
    try insert.bind(plan.unit.map { RecordedText.capped($0, to: .name) }, at: 3)
    try insert.bind(RecordedText.capped(plan.salt, to: .name), at: 4)
    try insert.run()
    let stage = try connection.prepare(
      """
      INSERT INTO flag_rollout_stages (session_id, key, position, basis_points, min_samples)
      VALUES (?, ?, ?, ?, ?)
      """)
    for (position, value) in plan.stages.enumerated() {
      stage.reset()
      try stage.bind(session, at: 1)
      try stage.bind(key, at: 2)
      try stage.bind(Int64(position + 1), at: 3)
      try stage.bind(Int64(min(max(value.basisPoints, 1), 10_000)), at: 4)
      try stage.bind(Int64(max(value.minSamples, 1)), at: 5)
      try stage.run()
    }
    let severity = try connection.prepare(
      """
      INSERT INTO flag_check_severities (session_id, key, check_name, severity)
      VALUES (?, ?, ?, ?)
      """)
    for (check, level) in plan.severities.sorted(by: { $0.key < $1.key }) {
      severity.reset()
      try severity.bind(session, at: 1)
      try severity.bind(key, at: 2)
      try severity.bind(RecordedText.capped(check, to: .name), at: 3)
      try severity.bind(level == "advisory" ? "advisory" : "critical", at: 4)
      try severity.run()
    }
  }

  /// The plans recorded by `sessions` (`nil`: every session), by flag key: for each key, the
  /// plan of the latest of those sessions (by start, then id) that defined the flag.
  ///
  /// - Throws: `StoreError.corrupt` for stages that do not rise or hold an impossible value.
  public static func plans(of sessions: [Int64]?, connection: Connection) throws
    -> [String: Plan]
  {
    let selected = sessions.map(Set.init)
    var plans: [String: Plan] = [:]
    let planRows = try connection.prepare(
      """
      SELECT p.session_id, p.key, p.unit, p.salt FROM flag_rollout_plans p
      JOIN sessions s ON s.id = p.session_id ORDER BY s.started_unix_ns, s.id
      """)
    var owners: [String: Int64] = [:]
    while try planRows.step() {
      let session = planRows.int64(at: 0)
      if let selected, !selected.contains(session) { continue }
      let key = planRows.text(at: 1) ?? ""
      owners[key] = session
      plans[key] = Plan(
        unit: planRows.text(at: 2), salt: planRows.text(at: 3) ?? "", stages: [], severities: [:])
    }
    let stageRows = try connection.prepare(
      """
      SELECT key, basis_points, min_samples FROM flag_rollout_stages WHERE session_id = ?
      ORDER BY key, position
      """)
    let severityRows = try connection.prepare(
      "SELECT key, check_name, severity FROM flag_check_severities WHERE session_id = ?")
    for session in Set(owners.values).sorted() {
      stageRows.reset()
      try stageRows.bind(session, at: 1)
      while try stageRows.step() {
        let key = stageRows.text(at: 0) ?? ""
        guard owners[key] == session else { continue }
        let stage = try Self.stage(
          stageRows, at: 1, after: plans[key]?.stages.last?.basisPoints,
          what: "a stage of flag '\(key)'", path: connection.path)
        plans[key]?.stages.append(stage)
      }
      severityRows.reset()
      try severityRows.bind(session, at: 1)
      while try severityRows.step() {
        let key = severityRows.text(at: 0) ?? ""
        guard owners[key] == session else { continue }
        plans[key]?.severities[severityRows.text(at: 1) ?? ""] = severityRows.text(at: 2)
      }
    }
    return plans
  }
}
