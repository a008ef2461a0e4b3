import SleeveCore
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
  /// A session's export at its end (`RecorderOptions.export`) failed: `message` says why.
  /// The session itself was recorded; `sleeve export --endpoint` can deliver it later.
  case exportFailed(session: String, message: String)

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
    case .exportFailed(let session, let message):
      "exporting session \(session) at its end failed: \(message)"
    }
  }

  /// The underlying SQLite error, when there is one.
  public var sqliteError: SQLiteError? {
    switch self {
    case .sqlite(let error, _), .writeFailed(let error, _, _), .writeRetrying(let error, _, _):
      error
    case .store, .closed, .exportFailed: nil
    }
  }

  /// A call waited for the writer longer than `RecorderOptions.waitTimeout` (`limit`), most
  /// often because another process held the database locked: `.sqlite` with the extended
  /// code `SQLITE_BUSY_TIMEOUT` (so it matches `SQLiteError.busy`, exit 75 on the command
  /// line) and a message saying what waited, for how long, and what became of the events.
  /// `cause` is the error of the writer's last attempt, when it gave the events up; without
  /// one, the writer did not answer even one more wait timeout after the deadline (it gives
  /// the events up when it gets to them: a wait that timed out is final).
  public static func timedOut(
    operation: String, path: String, limit: Duration, cause: SQLiteError?
  ) -> RecorderError {
    let waited =
      "gave up after waiting \(milliseconds(limit)) ms (RecorderOptions.waitTimeout) to \(operation)"
    let message =
      if let cause {
        "\(waited); the events are counted as failed (\(cause.message))"
      } else {
        "\(waited); the writer did not answer in time either: the events are counted as failed when it gets to them, never written"
      }
    return .sqlite(SQLiteError(code: timeoutCode, message: message), path: path)
  }

  /// Whether this is a ``timedOut(operation:path:limit:cause:)`` error.
  public var isTimeout: Bool {
    if case .sqlite(let error, _) = self { error.code == Self.timeoutCode } else { false }
  }

  /// `SQLITE_BUSY_TIMEOUT`: SQLITE_BUSY (5) | 3 << 8.
  static let timeoutCode: Int32 = 5 | 3 << 8

  /// Whole milliseconds, saturating.
  private static func milliseconds(_ duration: Duration) -> Int64 {
    MonotonicClock.nanoseconds(in: duration) / 1_000_000
  }
}

extension RecorderError: CommandFailure {
  /// The wrapped store or SQLite error's code; 74 for a closed recorder, 69 for an export at a
  /// session's end that failed.
  public var exitCode: ExitCode {
    switch self {
    case .store(let error): error.exitCode
    case .sqlite(let error, _), .writeFailed(let error, _, _), .writeRetrying(let error, _, _):
      error.exitCode
    case .closed: .ioError
    case .exportFailed: .unavailable
    }
  }
}
