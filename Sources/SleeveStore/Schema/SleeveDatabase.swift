/// Opens Sleeve database files: set up, checked, and (when writable) migrated.
public enum SleeveDatabase {
  /// Opens `path` for writing, creating it when missing, and applies pending migrations.
  ///
  /// - Throws: `StoreError` for a file that is not (or not yet readable as) a Sleeve database;
  ///   `SQLiteError` for I/O, permission and lock failures.
  public static func openForWriting(path: String, busyTimeout: Duration = .seconds(5)) throws
    -> Connection
  {
    let connection = try open(path: path, mode: .readWriteCreate, busyTimeout: busyTimeout)
    try Migrator.migrate(connection)
    return connection
  }

  /// Opens an existing `path` for reading and checks that this binary can read it.
  ///
  /// - Throws: `StoreError` for a file that is not a Sleeve database or is from a newer
  ///   Sleeve; `SQLiteError.cantOpen` when the file does not exist.
  public static func openForReading(path: String, busyTimeout: Duration = .seconds(5)) throws
    -> Connection
  {
    let connection = try open(path: path, mode: .readOnly, busyTimeout: busyTimeout)
    let state = try Migrator.state(of: connection)
    guard state.unknown.isEmpty else {
      throw StoreError.newerSchema(path: path, unknown: state.unknown)
    }
    return connection
  }

  private static func open(path: String, mode: Connection.Mode, busyTimeout: Duration) throws
    -> Connection
  {
    do {
      return try Connection(path: path, mode: mode, busyTimeout: busyTimeout)
    } catch SQLiteError.notADatabase {
      throw StoreError.notADatabase(path: path, detail: "file is not a database")
    } catch SQLiteError.corrupt {
      throw StoreError.corrupt(path: path, detail: "database disk image is malformed")
    }
  }
}
