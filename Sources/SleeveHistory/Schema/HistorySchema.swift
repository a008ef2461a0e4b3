import SleeveStore

/// The history's schema: its migrations (`Migrations/postgresql/*.sql`, embedded at build
/// time and versioned as the SQLite ones are), which of them a history has, and the one way
/// they are applied (`sleeve migrate --db URL`). Nothing else runs DDL: publish and every
/// reader first require the schema this binary knows, and refuse a newer or older one (65).
public enum HistorySchema {
  /// Every migration this binary knows, oldest first. A test checks that it equals the folder.
  public static let all: [Migration] = [
    Migration(id: "0001_history", bytes: PackageResources._001_history_sql)
  ]

  /// What a history has.
  public struct Status: Equatable, Sendable {
    /// The migrations it has that this binary knows, oldest first.
    public let applied: [String]
    /// The migrations it lacks (what `sleeve migrate --db URL` would apply).
    public let pending: [String]
    /// The migrations it has that this binary does not know: a newer history.
    public let unknown: [String]
    /// Whether it has no Sleeve schema at all.
    public var isEmpty: Bool { applied.isEmpty && unknown.isEmpty }
  }

  /// The lock key every migrating process takes (`pg_advisory_xact_lock`), so concurrent
  /// `sleeve migrate` runs apply each migration once: "SLEEVEHI" as a big-endian integer.
  static let lockKey: Int64 = 0x534C_4545_5645_4849

  /// What the history at `connection` has.
  static func status(_ connection: PostgresConnection) throws(HistoryError) -> Status {
    let exists = try connection.execute(
      "SELECT to_regclass('schema_migrations') IS NOT NULL")
    guard exists.text(0, 0) == "t" else {
      return Status(applied: [], pending: all.map(\.id), unknown: [])
    }
    let rows = try connection.execute("SELECT id FROM schema_migrations ORDER BY id")
    let present = Set((0..<rows.count).compactMap { rows.text($0, 0) })
    let known = Set(all.map(\.id))
    return Status(
      applied: all.map(\.id).filter(present.contains),
      pending: all.map(\.id).filter { !present.contains($0) },
      unknown: present.subtracting(known).sorted())
  }

  /// What the history at `location` has.
  public static func status(of location: HistoryLocation) throws(HistoryError) -> Status {
    try status(PostgresConnection(location))
  }

  /// Creates or upgrades the history's schema, every pending migration in one transaction
  /// under an advisory lock (a concurrent run waits, then finds nothing to do).
  ///
  /// - Returns: The migrations applied now.
  /// - Throws: `HistoryError`: schema (65) for a newer history, denied (77) for a role that
  ///   may not create tables, and the connection's failures.
  public static func migrate(_ location: HistoryLocation, unixNanoseconds: Int64) throws
    -> [String]
  {
    let connection = try PostgresConnection(location)
    return try connection.transaction { () throws -> [String] in
      try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(lockKey)])
      try connection.executeScript(
        """
        CREATE TABLE IF NOT EXISTS schema_migrations (
          id text PRIMARY KEY,
          applied_unix_ns bigint NOT NULL
        )
        """)
      let status = try status(connection)
      try refuseNewer(status, location: location)
      var applied: [String] = []
      for migration in all where status.pending.contains(migration.id) {
        try connection.executeScript(migration.sql)
        try connection.execute(
          "INSERT INTO schema_migrations (id, applied_unix_ns) VALUES ($1, $2)",
          [.text(migration.id), .integer(unixNanoseconds)])
        applied.append(migration.id)
      }
      return applied
    }
  }

  /// Refuses a history whose schema is not exactly this binary's: none yet, older or newer.
  static func requireCurrent(_ connection: PostgresConnection) throws(HistoryError) {
    let status = try status(connection)
    try refuseNewer(status, location: connection.location)
    guard !status.isEmpty else {
      throw HistoryError(
        .schema,
        "\(connection.location.redacted) holds no Sleeve history yet; create it with "
          + "'sleeve migrate --db URL'")
    }
    guard status.pending.isEmpty else {
      throw HistoryError(
        .schema,
        "\(connection.location.redacted) is an older Sleeve history (lacks "
          + "\(status.pending.joined(separator: ", "))); upgrade it with 'sleeve migrate --db URL'")
    }
  }

  /// Refuses a newer history: one with migrations this binary does not know.
  ///
  /// - Throws: `HistoryError` (schema, 65) naming them.
  public static func refuseNewer(_ status: Status, location: HistoryLocation)
    throws(HistoryError)
  {
    guard status.unknown.isEmpty else {
      throw HistoryError(
        .schema,
        "\(location.redacted) is a newer Sleeve history (has "
          + "\(status.unknown.joined(separator: ", "))); use a newer sleeve")
    }
  }
}
