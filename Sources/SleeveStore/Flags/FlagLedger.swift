/// The flag states recorded in a Sleeve database: every change, from a session or from the
/// command line, and the latest state of each flag.
///
/// ```swift
/// let ledger = try FlagLedger(connection: SleeveDatabase.openForWriting(path: "sleeve.sqlite"))
/// try ledger.record(FlagLedger.Change(key: "new-checkout",
///                                     state: RecordCodes.FlagChangeState.rolledBack.name,
///                                     reason: "p99 over budget", actor: "oncall"))
/// ```
public struct FlagLedger {
  /// One change to record, or the latest state of a flag.
  public struct Change: Equatable, Sendable {
    /// The flag's key.
    public let key: String
    /// `enabled`, `disabled`, `rolledBack` or `rollingOut` (``RecordCodes/FlagChangeState``).
    public let state: String
    /// For `rollingOut`, the share served on in basis points (0...10,000); `nil` otherwise.
    public let rolloutBasisPoints: Int?
    /// Why (required for a rollback).
    public let reason: String?
    /// Who.
    public let actor: String?
    /// When, Unix nanoseconds.
    public let atUnixNanoseconds: Int64

    /// Creates a change happening now.
    public init(
      key: String, state: String, reason: String?, actor: String?,
      atUnixNanoseconds: Int64 = WallClock.unixNanoseconds(), rolloutBasisPoints: Int? = nil
    ) {
      self.key = key
      self.state = state
      self.rolloutBasisPoints = rolloutBasisPoints
      self.reason = reason
      self.actor = actor
      self.atUnixNanoseconds = atUnixNanoseconds
    }
  }

  /// A flag's definition as last recorded by a session.
  public struct Definition: Equatable, Sendable {
    /// The owner.
    public let owner: String
    /// The highest acceptable error rate.
    public let maxErrorRate: Double?
    /// The highest acceptable p99, nanoseconds.
    public let maxP99Nanoseconds: Int64?
    /// The fewest samples for a verdict.
    public let minSamples: Int
  }

  let connection: Connection

  /// A ledger over an open database.
  public init(connection: Connection) {
    self.connection = connection
  }

  /// Whether the database has ever seen `key` (as recorded: capped like every flag key):
  /// defined by a session or changed.
  public func knows(_ key: String) throws -> Bool {
    let key = RecordedText.capped(key, to: .name)
    let statement = try connection.prepare(
      """
      SELECT EXISTS (SELECT 1 FROM flags WHERE key = ?1)
        OR EXISTS (SELECT 1 FROM flag_events WHERE key = ?1)
      """)
    try statement.bind(key, at: 1)
    _ = try statement.step()
    return statement.int64(at: 0) != 0
  }

  /// Records a change made outside any session (from the command line) in one transaction,
  /// through the one writer of flag events (``FlagEventWriter``, which caps its texts and
  /// stores a `rollingOut` change's share).
  public func record(_ change: Change) throws {
    try connection.transaction {
      try FlagEventWriter(connection: connection).write(
        FlagEventWriter.Row(
          key: change.key, state: change.state, rolloutBasisPoints: change.rolloutBasisPoints,
          reason: change.reason, actor: change.actor,
          atUnixNanoseconds: change.atUnixNanoseconds))
    }
  }

  /// The latest change of every flag, whoever made it.
  ///
  /// - Throws: `StoreError.corrupt` for a rollout share outside 0...10,000.
  public func latestStates() throws -> [String: Change] {
    let statement = try connection.prepare(
      """
      SELECT e.key, e.state, e.reason, e.actor, e.at_unix_ns, r.basis_points
      FROM flag_events e LEFT JOIN flag_rollouts r ON r.flag_event_id = e.id
      ORDER BY e.at_unix_ns, e.id
      """)
    var latest: [String: Change] = [:]
    while try statement.step() {
      let key = statement.text(at: 0) ?? ""
      let share = try RolloutRecords.basisPoints(
        statement, at: 5, what: "flag '\(key)'", path: connection.path)
      latest[key] = Change(
        key: key,
        state: share == nil
          ? statement.text(at: 1) ?? "" : RecordCodes.FlagChangeState.rollingOut.name,
        reason: statement.text(at: 2), actor: statement.text(at: 3),
        atUnixNanoseconds: statement.int64(at: 4), rolloutBasisPoints: share)
    }
    return latest
  }

  /// Each flag's definition from the most recent session that defined it.
  public func latestDefinitions() throws -> [String: Definition] {
    let statement = try connection.prepare(
      """
      SELECT f.key, f.owner, f.max_error_rate, f.max_p99_ns, f.min_samples
      FROM flags f JOIN sessions s ON s.id = f.session_id ORDER BY s.started_unix_ns, s.id
      """)
    var definitions: [String: Definition] = [:]
    while try statement.step() {
      let key = statement.text(at: 0) ?? ""
      definitions[key] = try Definition(
        reading: statement, from: 1, key: key, path: connection.path)
    }
    return definitions
  }
}
