/// Brings a database to this binary's schema, and refuses files it must not touch.
///
/// The pending migrations run in one `BEGIN IMMEDIATE` transaction that also records each in
/// `schema_migrations`, so they are applied whole or not at all, a reader never sees a file
/// half-migrated, and two processes migrating the same file at once apply each migration
/// once. Re-opening a migrated file applies nothing.
public enum Migrator {
  /// Where a database stands against this binary's migrations.
  public struct State: Equatable, Sendable {
    /// Applied migrations this binary knows, in order.
    public let applied: [String]
    /// Known migrations not yet applied, in order.
    public let pending: [String]
    /// Applied migrations this binary does not know (the file is from a newer Sleeve).
    public let unknown: [String]

    /// A file with no migrations applied: every known one pending.
    public static var unmigrated: State {
      State(applied: [], pending: SchemaMigrations.all.map(\.id), unknown: [])
    }
  }

  /// Applies every pending migration.
  ///
  /// - Parameters:
  ///   - connection: A writable connection.
  ///   - migrations: The known migrations, oldest first.
  /// - Returns: The ids applied by this call.
  /// - Throws: `StoreError` for a file that is not a Sleeve database or is from a newer
  ///   Sleeve, and `StoreError.migrationRefused` when a migration's guard refuses a value the
  ///   file holds; `SQLiteError` when a migration fails otherwise (nothing of it is applied).
  @discardableResult
  public static func migrate(
    _ connection: Connection, migrations: [Migration] = SchemaMigrations.all
  ) throws -> [String] {
    let current = try state(of: connection, migrations: migrations)
    guard current.unknown.isEmpty else {
      throw StoreError.newerSchema(path: connection.path, unknown: current.unknown)
    }
    guard !current.pending.isEmpty else { return [] }
    // Migrations rewrite keys in place (0002 rewrites every row id, parents before children,
    // and files may hold orphaned rows), so no statement checks foreign keys while they run.
    // SQLite only switches this outside a transaction; it is restored afterwards.
    let foreignKeys = try connection.scalarInt("PRAGMA foreign_keys") ?? 0
    if foreignKeys != 0 { try connection.execute("PRAGMA foreign_keys = OFF") }
    defer { if foreignKeys != 0 { try? connection.execute("PRAGMA foreign_keys = ON") } }
    // Every pending migration in one transaction: a reader (or another process migrating the
    // same file) sees the file before them all or after them all, never half-migrated.
    return try connection.transaction { () throws -> [String] in
      var applied: [String] = []
      try connection.execute(createLedger)
      for migration in migrations where current.pending.contains(migration.id) {
        let check = try connection.prepare("SELECT 1 FROM schema_migrations WHERE id = ?")
        try check.bind(migration.id, at: 1)
        guard try !check.step() else { continue }
        do {
          try connection.execute(migration.sql)
        } catch let error as SQLiteError where error.primaryCode == SQLiteError.constraint {
          // A migration's guard (RAISE in a trigger) refused a value of the file.
          throw StoreError.migrationRefused(
            path: connection.path, migration: migration.id, reason: error.message)
        }
        let record = try connection.prepare(
          "INSERT INTO schema_migrations (id, applied_unix_ns) VALUES (?, ?)")
        try record.bind(migration.id, at: 1)
        try record.bind(WallClock.unixNanoseconds(), at: 2)
        try record.run()
        try SchemaMigrations.completion(of: migration.id)?(connection)
        applied.append(migration.id)
      }
      return applied
    }
  }

  /// Reads where a database stands, without changing it.
  ///
  /// - Throws: `StoreError.notADatabase` for a file SQLite cannot read,
  ///   `StoreError.notASleeveDatabase` for a database with tables but no `schema_migrations`.
  public static func state(
    of connection: Connection, migrations: [Migration] = SchemaMigrations.all
  ) throws -> State {
    let tables = try tableNames(connection)
    guard tables.contains("schema_migrations") else {
      guard tables.isEmpty else {
        throw StoreError.notASleeveDatabase(path: connection.path, tables: tables)
      }
      return State(applied: [], pending: migrations.map(\.id), unknown: [])
    }
    var appliedIDs: [String] = []
    let statement = try connection.prepare("SELECT id FROM schema_migrations ORDER BY id")
    while try statement.step() { appliedIDs.append(statement.text(at: 0) ?? "") }
    // Migrations record themselves in the transaction that creates their tables, so tables
    // beside an empty ledger mean the ledger was damaged: neither new nor migratable.
    if appliedIDs.isEmpty, let table = tables.first(where: { $0 != "schema_migrations" }) {
      throw StoreError.corrupt(
        path: connection.path,
        detail: "schema_migrations is empty, but the file has tables ('\(table)', …)")
    }
    let known = migrations.map(\.id)
    return State(
      applied: known.filter(appliedIDs.contains),
      pending: known.filter { !appliedIDs.contains($0) },
      unknown: appliedIDs.filter { !known.contains($0) })
  }

  private static let createLedger = """
    CREATE TABLE IF NOT EXISTS schema_migrations (
      id TEXT PRIMARY KEY,
      applied_unix_ns INTEGER NOT NULL
    )
    """

  private static func tableNames(_ connection: Connection) throws -> [String] {
    try StoreError.translating(path: connection.path) {
      let statement = try connection.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      var names: [String] = []
      while try statement.step() { names.append(statement.text(at: 0) ?? "") }
      return names
    }
  }
}
