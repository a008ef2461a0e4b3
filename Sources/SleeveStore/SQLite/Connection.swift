import CSQLite

/// One connection to a SQLite database file, set up the same way every time: extended result
/// codes, a busy timeout, foreign keys on, WAL journal and `synchronous=NORMAL`.
///
/// Not `Sendable`: one thread owns a connection (the recorder's writer, or the command line's
/// main thread). The handle is closed in `deinit`, also when setup fails.
///
/// ```swift
/// let connection = try Connection(path: "sleeve.sqlite")
/// try connection.transaction { try connection.execute("DELETE FROM …") }
/// ```
public final class Connection {
  /// How to open the file.
  public enum Mode: Sendable {
    /// Read and write, creating the file when missing.
    case readWriteCreate
    /// Read and write an existing file.
    case readWrite
    /// Read an existing file only.
    case readOnly
    /// Read an existing file that this process cannot lock or write beside (a read-only
    /// directory, file or mount), as an immutable snapshot: SQLite takes no locks and ignores
    /// any `-wal` file, so commits not yet checkpointed into the file are not seen.
    ///
    /// See <https://www.sqlite.org/uri.html#uriimmutable>.
    case readOnlyImmutable
  }

  /// The file path as given.
  public let path: String
  /// How the file was opened.
  public let mode: Mode
  let handle: OpaquePointer

  /// Opens and sets up a connection.
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - mode: Whether to create, write or only read.
  ///   - busyTimeout: How long a statement waits for another connection's lock before failing
  ///     with `SQLiteError.busy`.
  /// - Throws: `SQLiteError` when the file cannot be opened or is not a database.
  public init(path: String, mode: Mode = .readWriteCreate, busyTimeout: Duration = .seconds(5))
    throws
  {
    var opened: OpaquePointer?
    let flags: Int32 =
      switch mode {
      case .readWriteCreate: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
      case .readWrite: SQLITE_OPEN_READWRITE
      case .readOnly: SQLITE_OPEN_READONLY
      case .readOnlyImmutable: SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
      }
    let name = mode == .readOnlyImmutable ? Self.immutableURI(path) : path
    let code = sqlite3_open_v2(name, &opened, flags | SQLITE_OPEN_NOMUTEX, nil)
    guard code == SQLITE_OK, let opened else {
      let error = SQLiteError(code: code, connection: opened)
      sqlite3_close_v2(opened)
      throw error
    }
    self.path = path
    self.mode = mode
    self.handle = opened
    sqlite3_extended_result_codes(handle, 1)
    let milliseconds = Int32(clamping: MonotonicNanoseconds.milliseconds(in: busyTimeout))
    sqlite3_busy_timeout(handle, milliseconds)
    try execute("PRAGMA foreign_keys = ON")
    if mode == .readWrite || mode == .readWriteCreate, path != ":memory:" {
      let journal = try retryingWhileBusy(for: busyTimeout) {
        try scalarText("PRAGMA journal_mode = WAL")
      }
      guard journal?.lowercased() == "wal" else {
        throw SQLiteError(
          code: SQLITE_ERROR, message: "journal_mode is \(journal ?? "unknown"), expected wal",
          sql: "PRAGMA journal_mode = WAL")
      }
      try execute("PRAGMA synchronous = NORMAL")
    }
  }

  deinit { sqlite3_close_v2(handle) }

  /// `file:` URI for `path` with `immutable=1`: every byte outside the URI's unreserved set
  /// and `/` percent-encoded, so no character of a path can add a query parameter.
  static func immutableURI(_ path: String) -> String {
    var uri = "file:"
    if !path.hasPrefix("/") { uri += "./" }
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
        uri.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        uri.unicodeScalars.append("%")
        uri.unicodeScalars.append(digits[Int(byte >> 4)])
        uri.unicodeScalars.append(digits[Int(byte & 0xF)])
      }
    }
    return uri + "?immutable=1"
  }

  /// Runs `body` again while it fails with `SQLiteError.busy`, for up to `timeout`. For the
  /// few statements whose lock SQLite will not wait for: switching a new file to WAL while
  /// other connections open it returns busy at once (waiting could deadlock), and succeeds
  /// once they are done.
  private func retryingWhileBusy<Result>(for timeout: Duration, _ body: () throws -> Result)
    throws -> Result
  {
    let deadline = ContinuousClock.now + timeout
    while true {
      do {
        return try body()
      } catch let error as SQLiteError
        where error.primaryCode == SQLiteError.busy && ContinuousClock.now < deadline
      {
        sqlite3_sleep(1)
      }
    }
  }

  /// Runs one or more SQL statements, statement by statement, so an error names the statement
  /// that failed. Rows they return are ignored.
  public func execute(_ sql: String) throws {
    var remaining = sql[...]
    while true {
      let trimmed = remaining.drop { $0.isWhitespace || $0 == ";" }
      guard !trimmed.isEmpty else { return }
      let (statement, tail) = try Statement.prepareFirst(of: String(trimmed), on: self)
      guard let statement else { return }
      while try statement.step() {}
      remaining = tail[...]
    }
  }

  /// Compiles one statement for repeated use.
  ///
  /// See <https://www.sqlite.org/c3ref/prepare.html>.
  public func prepare(_ sql: String) throws -> Statement {
    try Statement(sql: sql, connection: self)
  }

  /// Runs `body` in a transaction: commits when it returns, rolls back when it throws (and
  /// rethrows).
  ///
  /// - Parameter deferred: `false` (the default) takes the write lock at once (`BEGIN
  ///   IMMEDIATE`) on every attached database; `true` (`BEGIN DEFERRED`) locks each database
  ///   only when first read or written, so an attached database that is only read is never
  ///   write-locked.
  public func transaction<Result>(deferred: Bool = false, _ body: () throws -> Result) throws
    -> Result
  {
    try execute(deferred ? "BEGIN DEFERRED" : "BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      if !isAutocommit { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// Whether no transaction is open.
  public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

  /// The rows changed by the most recent INSERT, UPDATE or DELETE on this connection.
  public var changes: Int64 { Int64(sqlite3_changes(handle)) }

  /// The rowid of the most recent successful insert on this connection.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// The first column of the first row of `sql` as an integer, or `nil` without a row or
  /// for NULL.
  public func scalarInt(_ sql: String) throws -> Int64? {
    let statement = try prepare(sql)
    guard try statement.step(), !statement.isNull(at: 0) else { return nil }
    return statement.int64(at: 0)
  }

  /// The first column of the first row of `sql` as text, or `nil` without a row or for NULL.
  public func scalarText(_ sql: String) throws -> String? {
    let statement = try prepare(sql)
    guard try statement.step() else { return nil }
    return statement.text(at: 0)
  }

  /// The version of the SQLite library in use, e.g. `3.40.1`.
  public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}

@available(*, unavailable)
extension Connection: Sendable {}

/// Duration conversions for the store (kept here so the store does not depend on the core).
enum MonotonicNanoseconds {
  static func milliseconds(in duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds.multipliedReportingOverflow(by: 1000).partialValue
      &+ attoseconds / 1_000_000_000_000_000
  }
}
