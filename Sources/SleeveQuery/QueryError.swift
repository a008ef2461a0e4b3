import SleeveStore

/// Why a query could not run. Each description is one line naming the problem and what to do.
public enum QueryError: Error, Equatable, CustomStringConvertible {
  /// The database file does not exist.
  case databaseNotFound(path: String)
  /// No session matches the selection.
  case sessionNotFound(String)
  /// The file is not a Sleeve database, is damaged, or is from a newer Sleeve.
  case store(StoreError)
  /// SQLite failed (I/O, permissions, lock held past the busy timeout).
  case sqlite(SQLiteError, path: String)

  /// One line naming the problem and what to do.
  public var description: String {
    switch self {
    case .databaseNotFound(let path):
      "database '\(path)' not found; record a session first (e.g. 'sleeve demo') or pass --db"
    case .sessionNotFound(let selection):
      "no session matches \(selection); list them with 'sleeve sessions --session all'"
    case .store(let error):
      error.description
    case .sqlite(let error, let path):
      "cannot read '\(path)': \(error)"
    }
  }
}
