/// A value bound to a statement's `$n` parameter: hostile text (a recorded name, a message)
/// only ever reaches the server this way, never spliced into SQL text.
enum PostgresValue: Sendable, Equatable {
  /// A 64-bit integer (sent as its decimal text).
  case integer(Int64)
  /// Text (sent as UTF-8; PostgreSQL text cannot hold NUL, which the caller refuses first).
  case text(String)
  /// Bytes, sent in binary (a `bytea`).
  case bytes([UInt8])
  /// An array of 64-bit integers (`bigint[]`, sent as its text form `{1,2,3}`).
  case integers([Int64])
  /// NULL.
  case null

  /// The bytes sent for it, and whether they are binary; `nil` for NULL.
  var wire: (bytes: [UInt8], isBinary: Bool)? {
    switch self {
    case .integer(let value): (Array(String(value).utf8), false)
    case .text(let value): (Array(value.utf8), false)
    case .bytes(let value): (value, true)
    case .integers(let values):
      (Array(("{" + values.map(String.init).joined(separator: ",") + "}").utf8), false)
    case .null: nil
    }
  }
}
