import CSQLite

/// A compiled SQL statement, reused across executions: bind, step, reset.
///
/// Parameters are 1-based, as in SQLite; columns are 0-based. Text and blobs are copied when
/// bound. Finalized in `deinit`. Not `Sendable`: it belongs to its connection's thread.
///
/// See <https://www.sqlite.org/c3ref/stmt.html>.
public final class Statement {
  /// The SQL text, for error messages.
  public let sql: String
  private let handle: OpaquePointer
  private let connection: Connection

  init(sql: String, connection: Connection) throws {
    var prepared: OpaquePointer?
    let code = sqlite3_prepare_v2(connection.handle, sql, -1, &prepared, nil)
    guard code == SQLITE_OK, let prepared else {
      sqlite3_finalize(prepared)
      throw SQLiteError(code: code, connection: connection.handle, sql: sql)
    }
    self.sql = sql
    self.handle = prepared
    self.connection = connection
  }

  private init(sql: String, handle: OpaquePointer, connection: Connection) {
    self.sql = sql
    self.handle = handle
    self.connection = connection
  }

  /// Compiles the first statement of `sql`; returns it (or `nil` for only comments) and the
  /// text after it.
  static func prepareFirst(of sql: String, on connection: Connection) throws -> (
    Statement?, String
  ) {
    var prepared: OpaquePointer?
    return try sql.withCString { start in
      var tail: UnsafePointer<CChar>?
      let code = sqlite3_prepare_v2(connection.handle, start, -1, &prepared, &tail)
      let consumed = tail.map { start.distance(to: $0) } ?? sql.utf8.count
      let text = String(decoding: sql.utf8.prefix(consumed), as: UTF8.self)
      let rest = String(decoding: sql.utf8.dropFirst(consumed), as: UTF8.self)
      guard code == SQLITE_OK else {
        sqlite3_finalize(prepared)
        throw SQLiteError(
          code: code, connection: connection.handle,
          sql: text.trimmingWhitespace)
      }
      guard let prepared else { return (nil, rest) }
      return (
        Statement(sql: text.trimmingWhitespace, handle: prepared, connection: connection), rest
      )
    }
  }

  deinit { sqlite3_finalize(handle) }

  /// Binds an integer to parameter `index` (1-based).
  public func bind(_ value: Int64, at index: Int32) throws {
    try check(sqlite3_bind_int64(handle, index, value))
  }

  /// Binds an integer, or NULL for `nil`.
  public func bind(_ value: Int64?, at index: Int32) throws {
    guard let value else { return try bindNull(at: index) }
    try bind(value, at: index)
  }

  /// Binds a floating-point number, or NULL for `nil`.
  public func bind(_ value: Double?, at index: Int32) throws {
    guard let value else { return try bindNull(at: index) }
    try check(sqlite3_bind_double(handle, index, value))
  }

  /// Binds text (copied, every byte: a U+0000 inside is text, not its end), or NULL for `nil`.
  public func bind(_ value: String?, at index: Int32) throws {
    guard var value else { return try bindNull(at: index) }
    try value.withUTF8 { bytes in
      // An empty string's buffer may have no address, which SQLite would bind as NULL.
      let start = bytes.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)
      try check(
        sqlite3_bind_text64(
          handle, index, start?.assumingMemoryBound(to: CChar.self), UInt64(bytes.count),
          sleeve_sqlite_transient(), UInt8(SQLITE_UTF8)))
    }
  }

  /// Binds bytes as a blob (copied); an empty array binds a zero-length blob, never NULL.
  public func bind(blob bytes: [UInt8], at index: Int32) throws {
    try bytes.withUnsafeBytes { buffer in
      try check(
        sqlite3_bind_blob64(
          handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
          UInt64(buffer.count),
          sleeve_sqlite_transient()))
    }
  }

  /// Binds NULL.
  public func bindNull(at index: Int32) throws {
    try check(sqlite3_bind_null(handle, index))
  }

  /// Binds each value in order, from parameter 1.
  public func bind(_ values: [SQLValue]) throws {
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      switch value {
      case .integer(let integer): try bind(integer, at: index)
      case .real(let real): try bind(real, at: index)
      case .text(let text): try bind(text, at: index)
      case .null: try bindNull(at: index)
      }
    }
  }

  /// Advances to the next row: `true` when a row is ready, `false` when the statement is done.
  ///
  /// - Throws: `SQLiteError` carrying this statement's SQL.
  @discardableResult
  public func step() throws -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let error = SQLiteError(code: code, connection: connection.handle, sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Executes to completion and resets, keeping the bindings for the next run.
  public func run() throws {
    defer { sqlite3_reset(handle) }
    while try step() {}
  }

  /// Resets the statement for another execution (bindings are kept).
  public func reset() { sqlite3_reset(handle) }

  /// The number of columns in a result row.
  public var columnCount: Int32 { sqlite3_column_count(handle) }

  /// The highest parameter number the statement uses (`?3` counts as 3).
  public var parameterCount: Int32 { sqlite3_bind_parameter_count(handle) }

  /// Whether column `index` of the current row is NULL.
  public func isNull(at index: Int32) -> Bool {
    sqlite3_column_type(handle, index) == SQLITE_NULL
  }

  /// Column `index` as an integer (NULL reads 0).
  public func int64(at index: Int32) -> Int64 { sqlite3_column_int64(handle, index) }

  /// Column `index` as an integer, or `nil` for NULL.
  public func optionalInt64(at index: Int32) -> Int64? {
    isNull(at: index) ? nil : int64(at: index)
  }

  /// Column `index` as a floating-point number, or `nil` for NULL.
  public func double(at index: Int32) -> Double? {
    isNull(at: index) ? nil : sqlite3_column_double(handle, index)
  }

  /// Column `index` as text, or `nil` for NULL. Invalid UTF-8 is repaired, never trapped on.
  public func text(at index: Int32) -> String? {
    guard let bytes = sqlite3_column_text(handle, index) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// Column `index` as bytes when it is a blob; `nil` for any other type (NULL, text, a number).
  public func blob(at index: Int32) -> [UInt8]? {
    guard sqlite3_column_type(handle, index) == SQLITE_BLOB else { return nil }
    let count = Int(sqlite3_column_bytes(handle, index))
    guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return [] }
    return Array(UnsafeRawBufferPointer(start: bytes, count: count))
  }

  /// Column `index` as a dynamically typed value.
  public func value(at index: Int32) -> SQLValue {
    switch sqlite3_column_type(handle, index) {
    case SQLITE_INTEGER: .integer(int64(at: index))
    case SQLITE_FLOAT: .real(sqlite3_column_double(handle, index))
    case SQLITE_NULL: .null
    default: .text(text(at: index) ?? "")
    }
  }

  private func check(_ code: Int32) throws {
    guard code == SQLITE_OK else {
      throw SQLiteError(code: code, connection: connection.handle, sql: sql)
    }
  }
}

@available(*, unavailable)
extension Statement: Sendable {}

/// A value to bind or read, for statements whose types are only known at run time.
public enum SQLValue: Hashable, Sendable {
  /// A 64-bit integer.
  case integer(Int64)
  /// A floating-point number.
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// NULL.
  case null
}

extension String {
  var trimmingWhitespace: String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
      let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
    else { return "" }
    return String(scalars[first...last])
  }
}
