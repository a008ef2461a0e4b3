/// The one writer of `flag_events` rows: a flag change from a session (the recorder's batch
/// writer) and one from the command line (``FlagLedger/record(_:)``) are stored the same way.
/// Its texts are capped as every recorded text is (`RecordedText`: key and actor 1,024 bytes,
/// reason 4,096), its state is stored as ``RecordCodes/FlagChangeState/storedName(of:)`` says,
/// and a rollout's share goes to `flag_rollouts` (``RolloutRecords/insertFlagRollout``).
///
/// It writes inside its caller's transaction, so a change and its share commit together. The
/// two statements are prepared once, so a writer that records many changes keeps one.
///
/// ```swift
/// let writer = try FlagEventWriter(connection: connection)
/// try connection.transaction {
///   try writer.write(FlagEventWriter.Row(key: "new-checkout", state: "enabled"))
/// }
/// ```
public struct FlagEventWriter {
  /// One change as its row stores it.
  public struct Row: Equatable, Sendable {
    /// The session that recorded it, or `nil` for a change made from the command line.
    public var session: Int64?
    /// The flag's key (capped when written).
    public var key: String
    /// A ``RecordCodes/FlagChangeState`` name (`rollingOut` is stored as `disabled`).
    public var state: String
    /// For `rollingOut`, the share served on in basis points (0...10,000; `nil` stores 0).
    public var rolloutBasisPoints: Int?
    /// Why (capped when written).
    public var reason: String?
    /// Who (capped when written).
    public var actor: String?
    /// When, Unix nanoseconds.
    public var atUnixNanoseconds: Int64
    /// When, nanoseconds since its session started; `nil` without a session.
    public var atNanoseconds: Int64?

    /// A change to store.
    public init(
      session: Int64? = nil, key: String, state: String, rolloutBasisPoints: Int? = nil,
      reason: String? = nil, actor: String? = nil,
      atUnixNanoseconds: Int64 = WallClock.unixNanoseconds(), atNanoseconds: Int64? = nil
    ) {
      self.session = session
      self.key = key
      self.state = state
      self.rolloutBasisPoints = rolloutBasisPoints
      self.reason = reason
      self.actor = actor
      self.atUnixNanoseconds = atUnixNanoseconds
      self.atNanoseconds = atNanoseconds
    }
  }

  private let connection: Connection
  private let insertEvent: Statement
  private let insertRollout: Statement

  /// A writer on `connection` (opened for writing), its statements prepared.
  public init(connection: Connection) throws {
    self.connection = connection
    insertEvent = try connection.prepare(
      """
      INSERT INTO flag_events (session_id, key, state, reason, actor, at_unix_ns, at_ns)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """)
    insertRollout = try connection.prepare(RolloutRecords.insertFlagRollout)
  }

  /// Inserts `row`'s `flag_events` row, and its `flag_rollouts` share for a rollout.
  ///
  /// - Throws: `SQLiteError` when a write fails (a CHECK constraint for a share outside
  ///   ``RolloutRecords/shares``: a writer refuses what a reader refuses).
  public func write(_ row: Row) throws {
    try insertEvent.bind(row.session, at: 1)
    try insertEvent.bind(RecordedText.capped(row.key, to: .name), at: 2)
    try insertEvent.bind(RecordCodes.FlagChangeState.storedName(of: row.state), at: 3)
    try insertEvent.bind(row.reason.map { RecordedText.capped($0, to: .message) }, at: 4)
    try insertEvent.bind(row.actor.map { RecordedText.capped($0, to: .name) }, at: 5)
    try insertEvent.bind(row.atUnixNanoseconds, at: 6)
    try insertEvent.bind(row.atNanoseconds, at: 7)
    try insertEvent.run()
    guard row.state == RecordCodes.FlagChangeState.rollingOut.name else { return }
    try insertRollout.bind(connection.lastInsertRowID, at: 1)
    try insertRollout.bind(Int64(row.rolloutBasisPoints ?? 0), at: 2)
    try insertRollout.run()
  }
}

@available(*, unavailable)
extension FlagEventWriter: Sendable {}
