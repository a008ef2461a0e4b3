import SleeveStore
import SleeveTestSupport

/// A Sleeve database written row by row, so every duration and status is known.
final class FixtureDatabase {
  let directory = TemporaryDirectory()
  let path: String
  let connection: Connection
  private var nextFire: Int64 = 1
  private var nextOutcome: Int64 = 1

  init() throws {
    path = directory.path("fixture.sqlite")
    connection = try SleeveDatabase.openForWriting(path: path)
  }

  /// Adds an ended session started at `startedSeconds` (Unix seconds).
  func session(_ id: Int64, name: String, startedSeconds: Int64 = 1_700_000_000) throws {
    let started = startedSeconds * 1_000_000_000
    try connection.execute(
      """
      INSERT INTO sessions (id, uuid, name, started_unix_ns, ended_unix_ns, heartbeat_unix_ns,
        status, durability, host, pid, os, runtime, sleeve_version, sqlite_version)
      VALUES (\(id), '00000000-0000-0000-0000-00000000000\(id)', '\(name)', \(started),
        \(started + 2_000_000_000), \(started), 'ended', 'batched', 'host', 1, 'os', 'Swift 6.3',
        '0.1.0', '3.40.1')
      """)
  }

  /// Adds a control and a handler registered on it.
  func handler(
    session: Int64, number: Int64, name: String, control: String, flag: String? = nil
  ) throws {
    let controlID = session << 40 | number
    try connection.execute(
      "INSERT OR IGNORE INTO controls (id, session_id, name, kind) VALUES (\(controlID), \(session), '\(control)', 'Button')"
    )
    let flagSQL = flag.map { "'\($0)'" } ?? "NULL"
    try connection.execute(
      """
      INSERT INTO registrations (id, session_id, control_id, events, kind, handler, flag_key,
        is_async, site, registered_at_ns)
      VALUES (\(session << 40 | number), \(session), \(controlID), 64, 'closure', '\(name)',
        \(flagSQL), 0, 'Fixture.swift:1', 0)
      """)
  }

  /// Adds one fire of `events` with one outcome per entry of `durations` for handler `number`.
  func outcomes(
    session: Int64, handler number: Int64, durations: [Int64], status: Int = 0,
    variant: Int? = nil, events: Int = 64
  ) throws {
    for duration in durations {
      let fire = session << 40 | (1 << 30 + nextFire)
      nextFire += 1
      try connection.execute(
        """
        INSERT INTO fires (id, control_id, events, origin, depth, at_ns)
        VALUES (\(fire), \(session << 40 | number), \(events), 1, 1, 0)
        """)
      let variantSQL = variant.map(String.init) ?? "NULL"
      let stateSQL = variant.map { $0 == 1 ? "1" : "3" } ?? "NULL"
      try connection.execute(
        """
        INSERT INTO outcomes (id, fire_id, registration_id, status, variant, flag_state,
          is_async, started_ns, duration_ns)
        VALUES (\(session << 40 | nextOutcome), \(fire), \(session << 40 | number), \(status),
          \(variantSQL), \(stateSQL), 0, 0, \(duration))
        """)
      nextOutcome += 1
    }
  }

  /// Adds a flag definition and state changes.
  func flag(
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
}
