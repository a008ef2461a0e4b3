extension StoreError {
  /// The store's reading of a SQLite error about the file `path` itself: not a database
  /// (`SQLITE_NOTADB`) or damaged (`SQLITE_CORRUPT`); `nil` for any other error. The one place
  /// these two SQLite codes become file errors.
  public init?(_ error: SQLiteError, path: String) {
    switch error.primaryCode {
    case SQLiteError.notADatabase: self = .notADatabase(path: path, detail: error.message)
    case SQLiteError.corrupt: self = .corrupt(path: path, detail: error.message)
    default: return nil
    }
  }

  /// Runs `body`, turning a SQLite not-a-database or corrupt error into the `StoreError` for
  /// `path`; other errors pass through.
  public static func translating<Result>(path: String, _ body: () throws -> Result) throws
    -> Result
  {
    do {
      return try body()
    } catch let error as SQLiteError {
      throw StoreError(error, path: path) ?? error
    }
  }
}
