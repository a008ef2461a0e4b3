import SleeveStore

/// A Sleeve database written row by row, so every duration and status is known.
public final class FixtureDatabase {
  let directory = TemporaryDirectory()
  /// The database file.
  public let path: String
  /// A writable connection to it.
  public let connection: Connection
  private var nextFire: Int64 = 1
  private var nextOutcome: Int64 = 1

  /// Creates an empty, migrated database in a fresh directory.
  public init() throws {
    path = directory.path("fixture.sqlite")
    connection = try SleeveDatabase.openForWriting(path: path)
  }

  /// Creates an empty database in a fresh directory with only the first `count` migrations
  /// applied, as an older Sleeve wrote it (`2`: a file at 0002, before `session_context` and
  /// `quarantine`). The row helpers write 0002's layout (`session << 32 | n` ids) for
  /// `count >= 2`.
  public init(migrations count: Int) throws {
    path = directory.path("fixture.sqlite")
    connection = try Connection(path: path)
    try Migrator.migrate(connection, migrations: Array(SchemaMigrations.all.prefix(count)))
  }

  /// Adds an ended session started at `startedSeconds` (Unix seconds); its UUID ends in the
  /// digits of `uuidNumber` (default: `id`).
  public func session(
    _ id: Int64, name: String, startedSeconds: Int64 = 1_700_000_000, uuidNumber: Int64? = nil,
    status: String = "ended"
  ) throws {
    let started = startedSeconds * 1_000_000_000
    let uuidSuffix = String(uuidNumber ?? id)
    let uuid =
      "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - uuidSuffix.count)
      + uuidSuffix
    let ended = status == "ended" ? String(started + 2_000_000_000) : "NULL"
    try connection.execute(
      """
      INSERT INTO sessions (id, uuid, name, started_unix_ns, ended_unix_ns, heartbeat_unix_ns,
        status, durability, host, pid, os, runtime, sleeve_version, sqlite_version)
      VALUES (\(id), '\(uuid)', '\(name)', \(started), \(ended), \(started), '\(status)',
        'batched', 'host', 1, 'os', 'Swift 6.3', '0.1.0', '3.40.1')
      """)
  }

  /// Adds the session's context row (`session_context`); `nil` fields stay unknown.
  public func context(
    session: Int64, commit: String? = nil, branch: String? = nil, testID: String? = nil,
    testName: String? = nil, testTags: [String] = [], testResult: String? = nil,
    ciSystem: String? = nil
  ) throws {
    let statement = try connection.prepare(
      """
      INSERT INTO session_context (session_id, ci_system, commit_sha, branch, test_id,
        test_name, test_tags_json, test_result) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      """)
    let tags = "[" + testTags.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    try statement.bind([
      .integer(session), ciSystem.map(SQLValue.text) ?? .null,
      commit.map(SQLValue.text) ?? .null, branch.map(SQLValue.text) ?? .null,
      testID.map(SQLValue.text) ?? .null, testName.map(SQLValue.text) ?? .null, .text(tags),
      testResult.map(SQLValue.text) ?? .null,
    ])
    try statement.run()
  }

  /// One outcome for ``samples(session:handler:_:)``.
  public struct Sample: Sendable {
    /// The duration, nanoseconds.
    public var duration: Int64
    /// Whether it failed (status 1), else ok.
    public var failed: Bool
    /// The error's type, for a failed one.
    public var errorType: String?
    /// The error's message, for a failed one.
    public var errorMessage: String?

    /// An outcome.
    public init(
      _ duration: Int64, failed: Bool = false, errorType: String? = nil,
      errorMessage: String? = nil
    ) {
      self.duration = duration
      self.failed = failed
      self.errorType = errorType ?? (failed ? "CheckoutError" : nil)
      self.errorMessage = errorMessage
    }
  }

  /// Adds one fire per sample, each with one outcome of handler `number`, in one transaction
  /// with prepared statements (fast enough for tens of thousands of rows).
  public func samples(session: Int64, handler number: Int64, _ samples: [Sample]) throws {
    try connection.transaction {
      let fire = try connection.prepare(
        "INSERT INTO fires (id, control_id, events, origin, depth, at_ns) VALUES (?, ?, 64, 1, 1, 0)"
      )
      let outcome = try connection.prepare(
        """
        INSERT INTO outcomes (id, fire_id, registration_id, status, is_async, started_ns,
          duration_ns, error_type, error_message) VALUES (?, ?, ?, ?, 0, 0, ?, ?, ?)
        """)
      for sample in samples {
        let fireID = session << 32 | (1 << 30 + nextFire)
        nextFire += 1
        fire.reset()
        try fire.bind([.integer(fireID), .integer(session << 32 | number)])
        try fire.run()
        outcome.reset()
        try outcome.bind([
          .integer(session << 32 | nextOutcome), .integer(fireID),
          .integer(session << 32 | number), .integer(sample.failed ? 1 : 0),
          .integer(sample.duration), sample.errorType.map(SQLValue.text) ?? .null,
          sample.errorMessage.map(SQLValue.text) ?? .null,
        ])
        try outcome.run()
        nextOutcome += 1
      }
    }
  }

  /// Adds a control and a handler registered on it.
  public func handler(
    session: Int64, number: Int64, name: String, control: String, flag: String? = nil,
    identifier: String? = nil, site: String = "Fixture.swift:1"
  ) throws {
    let controlID = session << 32 | number
    try connection.execute(
      "INSERT OR IGNORE INTO controls (id, session_id, name, kind) VALUES (\(controlID), \(session), '\(control)', 'Button')"
    )
    let statement = try connection.prepare(
      """
      INSERT INTO registrations (id, session_id, control_id, events, kind, handler, identifier,
        flag_key, is_async, site, registered_at_ns) VALUES (?, ?, ?, 64, 'closure', ?, ?, ?, 0, ?, 0)
      """)
    try statement.bind([
      .integer(session << 32 | number), .integer(session), .integer(controlID), .text(name),
      identifier.map(SQLValue.text) ?? .null, flag.map(SQLValue.text) ?? .null, .text(site),
    ])
    try statement.run()
  }

  /// Adds one fire of `events` with one outcome per entry of `durations` for handler `number`.
  public func outcomes(
    session: Int64, handler number: Int64, durations: [Int64], status: Int = 0,
    variant: Int? = nil, events: Int = 64
  ) throws {
    for duration in durations {
      let fire = session << 32 | (1 << 30 + nextFire)
      nextFire += 1
      try connection.execute(
        """
        INSERT INTO fires (id, control_id, events, origin, depth, at_ns)
        VALUES (\(fire), \(session << 32 | number), \(events), 1, 1, 0)
        """)
      let variantSQL = variant.map(String.init) ?? "NULL"
      let stateSQL = variant.map { $0 == 1 ? "1" : "3" } ?? "NULL"
      try connection.execute(
        """
        INSERT INTO outcomes (id, fire_id, registration_id, status, variant, flag_state,
          is_async, started_ns, duration_ns)
        VALUES (\(session << 32 | nextOutcome), \(fire), \(session << 32 | number), \(status),
          \(variantSQL), \(stateSQL), 0, 0, \(duration))
        """)
      nextOutcome += 1
    }
  }

  /// Adds a flag definition and state changes.
  public func flag(
    session: Int64, key: String, owner: String, maxErrorRate: Double?, maxP99: Int64?,
    minSamples: Int, states: [(String, String?)]
  ) throws {
    let rate = maxErrorRate.map { String($0) } ?? "NULL"
    let p99 = maxP99.map { String($0) } ?? "NULL"
    try connection.execute(
      """
      INSERT INTO flags (session_id, key, owner, max_error_rate, max_p99_ns, min_samples)
      VALUES (\(session), '\(key)', '\(owner)', \(rate), \(p99), \(minSamples))
      """)
    for (index, (state, reason)) in states.enumerated() {
      let reasonSQL = reason.map { "'\($0)'" } ?? "NULL"
      try connection.execute(
        """
        INSERT INTO flag_events (session_id, key, state, reason, actor, at_unix_ns, at_ns)
        VALUES (\(session), '\(key)', '\(state)', \(reasonSQL),
          'fixture', \(1_700_000_000_000_000_000 + Int64(index)), \(index))
        """)
    }
  }

  /// Summarizes every ended session that has no summaries, as the recorder does when a session
  /// ends (fixtures write their rows directly, so they start unsummarized).
  public func summarizeEnded() throws {
    try connection.transaction {
      let ended = try connection.prepare(
        """
        SELECT id FROM sessions WHERE status = 'ended'
          AND id NOT IN (SELECT session_id FROM session_summaries)
        """)
      var ids: [Int64] = []
      while try ended.step() { ids.append(ended.int64(at: 0)) }
      for id in ids {
        try SummaryTables.summarize(session: id, connection: connection, unixNanoseconds: 0)
      }
    }
  }

  /// Session 1 "alpha": validate (9 ok, {1,4,6,7,8,9,11,11,11}), charge gated by new-pay
  /// (on: 8 ok + 2 failed; off: 5 ok), a skipped and an ownerReleased outcome.
  /// Session 2 "beta" (later): validate, 3 ok.
  public static func standard() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    try fixture.addAlpha(as: 1)
    try fixture.addBeta(as: 2)
    return fixture
  }

  /// Adds the standard "alpha" session (UUID number 1) with row id `id`.
  public func addAlpha(as id: Int64) throws {
    try session(id, name: "alpha", startedSeconds: 1_700_000_000, uuidNumber: 1)
    try handler(session: id, number: 1, name: "validate", control: "checkout.pay")
    try handler(session: id, number: 2, name: "charge", control: "checkout.pay", flag: "new-pay")
    try outcomes(session: id, handler: 1, durations: [1, 4, 6, 7, 8, 9, 11, 11, 11])
    try outcomes(session: id, handler: 2, durations: Array(repeating: 100, count: 8), variant: 1)
    try outcomes(session: id, handler: 2, durations: [300, 500], status: 1, variant: 1)
    try outcomes(session: id, handler: 2, durations: [50, 50, 50, 50, 50], variant: 0)
    try outcomes(session: id, handler: 1, durations: [0], status: 3, events: 1)
    try outcomes(session: id, handler: 1, durations: [0], status: 2)
    try flag(
      session: id, key: "new-pay", owner: "payments", maxErrorRate: 0.1, maxP99: 400,
      minSamples: 5, states: [("enabled", nil), ("rolledBack", "errors")])
  }

  /// Adds the standard "beta" session (UUID number 2) with row id `id`.
  public func addBeta(as id: Int64) throws {
    try session(id, name: "beta", startedSeconds: 1_700_000_100, uuidNumber: 2)
    try handler(session: id, number: 1, name: "validate", control: "checkout.pay")
    try outcomes(session: id, handler: 1, durations: [5, 5, 5])
  }
}
