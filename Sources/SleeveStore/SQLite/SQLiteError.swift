import CSQLite

/// An error reported by SQLite: the extended result code, SQLite's message, and the SQL that
/// was running (never the values bound to it).
///
/// Match codes in `catch` clauses:
///
/// ```swift
/// do { try connection.execute("…") } catch SQLiteError.busy { retryLater() }
/// ```
///
/// See <https://www.sqlite.org/rescode.html>.
public struct SQLiteError: Error, Equatable, CustomStringConvertible {
  /// A primary result code, for matching any of its extended codes.
  public struct Code: Equatable, Sendable {
    /// The primary result code (the low byte of any extended code).
    public let rawValue: Int32
    /// Creates a code.
    public init(_ rawValue: Int32) { self.rawValue = rawValue }
  }

  /// The extended result code.
  public let code: Int32
  /// SQLite's message.
  public let message: String
  /// The SQL that failed, when a statement was involved.
  public let sql: String?

  /// The primary result code (the extended code's low byte).
  public var primaryCode: Code { Code(code & 0xFF) }

  /// Creates an error.
  public init(code: Int32, message: String, sql: String? = nil) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  init(code: Int32, connection: OpaquePointer?, sql: String? = nil) {
    let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
    self.init(code: code, message: message ?? String(cString: sqlite3_errstr(code)), sql: sql)
  }

  /// `SQLite error 19: NOT NULL constraint failed: sessions.name - while executing 'INSERT …'`,
  /// always on one line.
  public var description: String {
    var text = "SQLite error \(code): \(message)"
    if let sql {
      // One line, whatever the SQL's layout: errors are printed one per line.
      let flat = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      text += " - while executing '\(flat.prefix(200))'"
    }
    return text
  }

  /// The database is locked by another connection past the busy timeout.
  public static let busy = Code(SQLITE_BUSY)
  /// A table in the database is locked.
  public static let locked = Code(SQLITE_LOCKED)
  /// The database or disk is full (or `max_page_count` was reached).
  public static let full = Code(SQLITE_FULL)
  /// The database is read-only.
  public static let readOnly = Code(SQLITE_READONLY)
  /// The file could not be opened.
  public static let cantOpen = Code(SQLITE_CANTOPEN)
  /// The file is not a database.
  public static let notADatabase = Code(SQLITE_NOTADB)
  /// The database file is malformed.
  public static let corrupt = Code(SQLITE_CORRUPT)
  /// A disk I/O error.
  public static let ioError = Code(SQLITE_IOERR)
  /// A constraint was violated.
  public static let constraint = Code(SQLITE_CONSTRAINT)
  /// Out of memory.
  public static let noMemory = Code(SQLITE_NOMEM)
}

extension SQLiteError.Code {
  /// Matches an error against a primary result code: `catch SQLiteError.busy`.
  public static func ~= (pattern: SQLiteError.Code, error: any Error) -> Bool {
    (error as? SQLiteError)?.primaryCode == pattern
  }
}

extension SQLiteError: CommandFailure {
  /// 75 for a lock held past the busy timeout, 66 for a file that cannot be opened, 65 for one
  /// that is not a database or is damaged, 74 for any other failure (I/O, a full disk, …).
  public var exitCode: ExitCode {
    switch primaryCode {
    case SQLiteError.busy, SQLiteError.locked: .busy
    case SQLiteError.cantOpen: .notFound
    case SQLiteError.notADatabase, SQLiteError.corrupt: .dataError
    default: .ioError
    }
  }
}
