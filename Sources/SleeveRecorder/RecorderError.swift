import SleeveStore

/// A recorder failure, as thrown by `Recorder(path:)` and `startSession`, and as delivered to
/// `RecorderOptions.onWriteError` for failed background writes.
public enum RecorderError: Error, CustomStringConvertible, Sendable {
  /// The file cannot be used as a Sleeve database.
  case store(StoreError)
  /// SQLite refused an operation (I/O, permissions, disk full, busy past the timeout).
  case sqlite(SQLiteError, path: String)
  /// A background batch failed; its events were not written and are counted on their
  /// sessions as failed.
  case writeFailed(SQLiteError, path: String, lostEvents: Int)
  /// Another process held the database locked past the busy timeout; the batch is kept and
  /// tried again (nothing is lost yet). Reported once per attempt.
  case writeRetrying(SQLiteError, path: String, attempt: Int)
  /// The recorder was closed.
  case closed(path: String)

  /// One line naming the file, what went wrong and what to do.
  public var description: String {
    switch self {
    case .store(let error):
      error.description
    case .sqlite(let error, let path):
      "cannot record into '\(path)': \(error)"
    case .writeFailed(let error, let path, let lost):
      "writing to '\(path)' failed, \(lost) events lost: \(error)"
    case .writeRetrying(let error, let path, let attempt):
      "'\(path)' is locked by another process (attempt \(attempt)); retrying: \(error)"
    case .closed(let path):
      "the recorder for '\(path)' is closed; create a new Recorder"
    }
  }

  /// The underlying SQLite error, when there is one.
  public var sqliteError: SQLiteError? {
    switch self {
    case .sqlite(let error, _), .writeFailed(let error, _, _), .writeRetrying(let error, _, _):
      error
    case .store, .closed: nil
    }
  }
}
