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
    if !state.applied.isEmpty {
      let present = try Set(tableNames(connection))
      if let missing = coreTables.first(where: { !present.contains($0) }) {
        throw StoreError.corrupt(path: path, detail: "table '\(missing)' is missing")
      }
    }
    return connection
  }

  /// The tables every migrated Sleeve database has.
  static let coreTables = [
    "sessions", "controls", "registrations", "fires", "outcomes", "flags", "flag_events",
  ]

  private static func tableNames(_ connection: Connection) throws -> [String] {
    let statement = try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
    var names: [String] = []
    while try statement.step() { names.append(statement.text(at: 0) ?? "") }
    return names
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
