/// The one home of the delivery tables (`Migrations/0008_deliveries.sql`): which requests of a
/// session's OTLP signal an endpoint accepted, and where each session's delivery stands.
///
/// A push reads ``delivered(session:endpoint:signal:)`` before it sends, records each request
/// with ``record(_:)`` in its own transaction as soon as the receiver accepted it (so a kill
/// loses at most the one request in flight: it is sent again, never skipped), and ends with
/// ``setState(_:)``. Nothing else writes these tables.
public struct DeliveryLedger {
  /// One request the receiver accepted.
  public struct Request: Equatable, Sendable {
    /// The session's database id.
    public let sessionID: Int64
    /// The URL it was posted to, without credentials.
    public let endpoint: String
    /// `traces` or `metrics`.
    public let signal: String
    /// Its position in the session's stream of requests of that signal, from 1.
    public let sequence: Int64
    /// The fire numbers of its first and last fire group (metrics: `0...0`).
    public let fires: ClosedRange<Int64>
    /// The spans or data points it held.
    public let items: Int64
    /// Of them, the ones the receiver refused in a partial success.
    public let rejected: Int64
    /// The digest of its uncompressed body.
    public let digest: UInt64
    /// When the receiver accepted it, Unix nanoseconds.
    public let deliveredUnixNanoseconds: Int64

    /// A delivered request.
    public init(
      sessionID: Int64, endpoint: String, signal: String, sequence: Int64,
      fires: ClosedRange<Int64>, items: Int64, rejected: Int64, digest: UInt64,
      deliveredUnixNanoseconds: Int64 = WallClock.unixNanoseconds()
    ) {
      self.sessionID = sessionID
      self.endpoint = endpoint
      self.signal = signal
      self.sequence = sequence
      self.fires = fires
      self.items = items
      self.rejected = rejected
      self.digest = digest
      self.deliveredUnixNanoseconds = deliveredUnixNanoseconds
    }
  }

  /// Where a session's delivery of a signal to an endpoint stands.
  public struct State: Equatable, Sendable {
    /// How the last push of it ended.
    public enum Outcome: String, Sendable, CaseIterable {
      /// Every request was accepted.
      case delivered
      /// Some were, and the push stopped (interrupted, or the session grew after it).
      case partial
      /// The last push failed; `lastError` says why.
      case failed
    }

    /// The session's database id.
    public let sessionID: Int64
    /// The URL, without credentials.
    public let endpoint: String
    /// `traces` or `metrics`.
    public let signal: String
    /// How the last push ended.
    public let outcome: Outcome
    /// Whether the session had ended when it was pushed: `delivered` and ended means final.
    public let sessionEnded: Bool
    /// When it was attempted, Unix nanoseconds.
    public let attemptedUnixNanoseconds: Int64
    /// Why it stopped short, for `failed`.
    public let lastError: String?
    /// Requests accepted so far, with their items and rejected items (filled in by reads).
    public var requests: Int64 = 0
    /// Items of the accepted requests.
    public var items: Int64 = 0
    /// Items the receiver refused in partial successes.
    public var rejected: Int64 = 0

    /// A state as a push ends.
    public init(
      sessionID: Int64, endpoint: String, signal: String, outcome: Outcome, sessionEnded: Bool,
      lastError: String? = nil, attemptedUnixNanoseconds: Int64 = WallClock.unixNanoseconds()
    ) {
      self.sessionID = sessionID
      self.endpoint = endpoint
      self.signal = signal
      self.outcome = outcome
      self.sessionEnded = sessionEnded
      self.lastError = lastError
      self.attemptedUnixNanoseconds = attemptedUnixNanoseconds
    }
  }

  let connection: Connection

  /// A ledger over an open database: a writer's (`SleeveDatabase.openForWriting`) for the
  /// writes; any connection for the reads (a file before 0008 reads as nothing delivered).
  public init(connection: Connection) {
    self.connection = connection
  }

  /// The requests of `session`'s `signal` that `endpoint` accepted, by sequence.
  public func delivered(session: Int64, endpoint: String, signal: String) throws
    -> [Int64: Request]
  {
    let statement = try connection.prepare(
      """
      SELECT sequence, first_fire, last_fire, items, rejected, digest, delivered_unix_ns
      FROM otlp_deliveries WHERE session_id = ? AND endpoint = ? AND signal = ?
      """)
    try statement.bind(session, at: 1)
    try statement.bind(endpoint, at: 2)
    try statement.bind(signal, at: 3)
    var requests: [Int64: Request] = [:]
    while try statement.step() {
      let first = statement.int64(at: 1)
      let last = max(statement.int64(at: 2), first)
      let request = Request(
        sessionID: session, endpoint: endpoint, signal: signal, sequence: statement.int64(at: 0),
        fires: first...last, items: statement.int64(at: 3), rejected: statement.int64(at: 4),
        digest: UInt64(bitPattern: statement.int64(at: 5)),
        deliveredUnixNanoseconds: statement.int64(at: 6))
      requests[request.sequence] = request
    }
    return requests
  }

  /// Records that the receiver accepted `request`, in a transaction of its own (a request
  /// recorded again replaces the row: `--resend` sends over it).
  public func record(_ request: Request) throws {
    try connection.transaction {
      let statement = try connection.prepare(
        """
        INSERT OR REPLACE INTO otlp_deliveries (session_id, endpoint, signal, sequence,
          first_fire, last_fire, items, rejected, digest, delivered_unix_ns)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """)
      try statement.bind(request.sessionID, at: 1)
      try statement.bind(request.endpoint, at: 2)
      try statement.bind(request.signal, at: 3)
      try statement.bind(request.sequence, at: 4)
      try statement.bind(request.fires.lowerBound, at: 5)
      try statement.bind(request.fires.upperBound, at: 6)
      try statement.bind(request.items, at: 7)
      try statement.bind(request.rejected, at: 8)
      try statement.bind(Int64(bitPattern: request.digest), at: 9)
      try statement.bind(request.deliveredUnixNanoseconds, at: 10)
      _ = try statement.step()
    }
  }

  /// Forgets what `endpoint` accepted of `session`'s `signal` (`--resend`: everything is sent
  /// again and recorded anew).
  public func forget(session: Int64, endpoint: String, signal: String) throws {
    try connection.transaction {
      for table in ["otlp_deliveries", "otlp_delivery_state"] {
        let statement = try connection.prepare(
          "DELETE FROM \(table) WHERE session_id = ? AND endpoint = ? AND signal = ?")
        try statement.bind(session, at: 1)
        try statement.bind(endpoint, at: 2)
        try statement.bind(signal, at: 3)
        _ = try statement.step()
      }
    }
  }

  /// Records how a push of `state`'s session, signal and endpoint ended (replacing the last).
  /// Its error text is capped as every recorded message is.
  public func setState(_ state: State) throws {
    try connection.transaction {
      let statement = try connection.prepare(
        """
        INSERT OR REPLACE INTO otlp_delivery_state (session_id, endpoint, signal, state,
          session_ended, attempted_unix_ns, last_error)
        VALUES (?, ?, ?, ?, ?, ?, ?)
        """)
      try statement.bind(state.sessionID, at: 1)
      try statement.bind(state.endpoint, at: 2)
      try statement.bind(state.signal, at: 3)
      try statement.bind(state.outcome.rawValue, at: 4)
      try statement.bind(state.sessionEnded ? 1 : 0, at: 5)
      try statement.bind(state.attemptedUnixNanoseconds, at: 6)
      try statement.bind(state.lastError.map { RecordedText.capped($0, to: .message) }, at: 7)
      _ = try statement.step()
    }
  }

  /// Every session's delivery states among `sessions`, each with its accepted requests'
  /// totals, ordered by endpoint and signal. A state whose text a file damaged (an unknown
  /// outcome) is `corrupt`, never guessed.
  public func states(of sessions: [Int64]) throws -> [Int64: [State]] {
    guard !sessions.isEmpty else { return [:] }
    let statement = try connection.prepare(
      """
      SELECT s.session_id, s.endpoint, s.signal, s.state, s.attempted_unix_ns, s.last_error,
        s.session_ended, count(d.sequence), coalesce(sum(d.items), 0),
        coalesce(sum(d.rejected), 0)
      FROM otlp_delivery_state s
      LEFT JOIN otlp_deliveries d USING (session_id, endpoint, signal)
      WHERE s.session_id IN (SELECT value FROM json_each(?))
      GROUP BY s.session_id, s.endpoint, s.signal
      ORDER BY s.session_id, s.endpoint, s.signal
      """)
    try statement.bind("[" + sessions.map(String.init).joined(separator: ",") + "]", at: 1)
    var states: [Int64: [State]] = [:]
    while try statement.step() {
      let text = statement.text(at: 3) ?? ""
      guard let outcome = State.Outcome(rawValue: text) else {
        throw StoreError.corrupt(
          path: connection.path,
          detail: "otlp_delivery_state holds the state \(SQLValue.text(text).damageText)")
      }
      var state = State(
        sessionID: statement.int64(at: 0), endpoint: statement.text(at: 1) ?? "",
        signal: statement.text(at: 2) ?? "", outcome: outcome,
        sessionEnded: statement.int64(at: 6) != 0, lastError: statement.text(at: 5),
        attemptedUnixNanoseconds: statement.int64(at: 4))
      state.requests = statement.int64(at: 7)
      state.items = statement.int64(at: 8)
      state.rejected = statement.int64(at: 9)
      states[state.sessionID, default: []].append(state)
    }
    return states
  }
}
