import CSQLite

/// Opens Sleeve database files: inspected, set up, checked, and (when writable) migrated.
///
/// Readers and writers refuse the same files: anything that is not a regular file, a short or
/// foreign file, a file from a newer Sleeve, and a file missing a table or column Sleeve reads.
/// A writer creates a database only where nothing is (0600, never through a symbolic link) or
/// in a zero-byte file.
public enum SleeveDatabase {
  /// Opens `path` for writing, creating it (0600) when missing, applies pending migrations and
  /// checks the schema.
  ///
  /// - Throws: `StoreError` for a path that is not a regular file, not (or not yet readable
  ///   as) a Sleeve database, newer, or damaged; `SQLiteError` for I/O, permission and lock
  ///   failures.
  public static func openForWriting(path: String, busyTimeout: Duration = .seconds(5)) throws
    -> Connection
  {
    try migrate(path: path, busyTimeout: busyTimeout).connection
  }

  /// Opens `path` for writing as `openForWriting` does, and says which migrations it applied.
  ///
  /// - Throws: what `openForWriting` throws.
  public static func migrate(path: String, busyTimeout: Duration = .seconds(5)) throws
    -> (connection: Connection, applied: [String])
  {
    try DatabaseFile.prepareForWriting(path)
    let connection = try open(path: path, mode: .readWriteCreate, busyTimeout: busyTimeout)
    let applied = try Migrator.migrate(connection)
    try SchemaCheck.verify(connection)
    return (connection, applied)
  }

  /// Opens an existing `path` for reading and checks that this binary can read it.
  ///
  /// A file this process cannot lock or write beside (a read-only directory, file or mount,
  /// another user's CI artifact) is read as an immutable snapshot; `Connection.mode` then says
  /// `.readOnlyImmutable`.
  ///
  /// A file lacking only migrations of ``SchemaMigrations/addOnlyTables`` is read as it is:
  /// their tables read as empty (temporary tables of this connection; the file is untouched).
  ///
  /// - Throws: `StoreError` for a missing-table, foreign, older, newer, damaged or empty file
  ///   or a path that is not a regular file; `SQLiteError` otherwise.
  public static func openForReading(
    path: String, busyTimeout: Duration = .seconds(5),
    migrations: [Migration] = SchemaMigrations.all
  ) throws -> Connection {
    switch try DatabaseFile.inspect(path) {
    case .missing:
      throw StoreError.unreadable(path: path, reason: "no such file")
    case .empty:
      throw StoreError.noSessionsYet(path: path)
    case .sqlite:
      break
    }
    var connection = try open(path: path, mode: .readOnly, busyTimeout: busyTimeout)
    let state: Migrator.State
    do {
      state = try Migrator.state(of: connection, migrations: migrations)
    } catch let error as SQLiteError where cannotLock(error) {
      connection = try open(path: path, mode: .readOnlyImmutable, busyTimeout: busyTimeout)
      state = try Migrator.state(of: connection, migrations: migrations)
    }
    guard state.unknown.isEmpty else {
      throw StoreError.newerSchema(path: path, unknown: state.unknown)
    }
    guard !state.applied.isEmpty else { throw StoreError.noSessionsYet(path: path) }
    guard state.pending.allSatisfy(SchemaMigrations.addOnlyTables.contains) else {
      throw StoreError.olderSchema(path: path, pending: state.pending)
    }
    let applied = migrations.filter { state.applied.contains($0.id) }
    try SchemaCheck.verify(connection, migrations: applied)
    if !state.pending.isEmpty {
      try StoreError.translating(path: path) {
        try SchemaCheck.createEmptyTables(
          on: connection, missing: migrations.filter { state.pending.contains($0.id) },
          after: applied)
      }
    }
    return connection
  }

  /// Where the database on `connection` stands against this binary's migrations, without
  /// changing it, and checked as every reader checks it: a file missing a table or column its
  /// applied migrations create (a dropped column, a renamed table, a view in place of a table)
  /// is damaged, never listed as migrated.
  ///
  /// A file from a newer Sleeve is not checked (its layout is not this binary's to know): its
  /// state says which migrations are unknown.
  ///
  /// - Throws: `StoreError.corrupt` naming the first missing table or column; what
  ///   `Migrator.state(of:)` throws.
  public static func migrationState(of connection: Connection) throws -> Migrator.State {
    let state = try Migrator.state(of: connection)
    guard state.unknown.isEmpty else { return state }
    try SchemaCheck.verify(
      connection, migrations: SchemaMigrations.all.filter { state.applied.contains($0.id) })
    return state
  }

  /// Whether `error` is SQLite failing to read a file it can open but not lock or write
  /// beside (its `-shm`): read-only, cannot-open, or permission codes.
  private static func cannotLock(_ error: SQLiteError) -> Bool {
    [SQLiteError.readOnly, SQLiteError.cantOpen, SQLiteError.Code(SQLITE_PERM)].contains(
      error.primaryCode)
  }

  private static func open(path: String, mode: Connection.Mode, busyTimeout: Duration) throws
    -> Connection
  {
    try StoreError.translating(path: path) {
      try Connection(path: path, mode: mode, busyTimeout: busyTimeout)
    }
  }
}
