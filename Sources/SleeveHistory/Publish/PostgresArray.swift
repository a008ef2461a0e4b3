/// One column's values as a PostgreSQL array literal in text form (`{1,NULL,3}`,
/// `{"a\"b",NULL}`), bound as one parameter and unnested into rows on the server. Built from
/// bytes: every element of text or bytes is quoted and its `"` and `\` escaped, so no value
/// can end an element, the array or the statement early.
struct PostgresArray {
  /// The element type, as the statement casts the parameter (`$3::text[]`).
  let type: String
  private var bytes: [UInt8] = [UInt8(ascii: "{")]
  private var count = 0

  /// Text PostgreSQL cannot store: a NUL character (its `text` type ends at one).
  struct NULInText: Error {}

  /// An empty array of `type`.
  init(of type: HistoryTables.ValueType) {
    switch type {
    case .integer: self.type = "bigint"
    case .real: self.type = "float8"
    case .text: self.type = "text"
    case .blob: self.type = "bytea"
    }
  }

  /// The literal, as the parameter's value.
  var literal: PostgresValue {
    .text(String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self))
  }

  private mutating func separate() {
    if count > 0 { bytes.append(UInt8(ascii: ",")) }
    count += 1
  }

  /// Appends NULL.
  mutating func appendNull() {
    separate()
    bytes += Array("NULL".utf8)
  }

  /// Appends an integer.
  mutating func append(_ value: Int64) {
    separate()
    bytes += Array(String(value).utf8)
  }

  /// Appends a double, in a form that reads back as the same double.
  mutating func append(_ value: Double) {
    separate()
    if value.isNaN {
      bytes += Array("NaN".utf8)
    } else if value.isInfinite {
      bytes += Array((value < 0 ? "-Infinity" : "Infinity").utf8)
    } else {
      bytes += Array(String(value).utf8)
    }
  }

  /// Appends text, quoted and escaped.
  ///
  /// - Throws: ``NULInText`` for text holding NUL.
  mutating func append(_ text: String) throws(NULInText) {
    separate()
    try appendQuoted(Array(text.utf8))
  }

  /// Appends bytes as a `bytea` element in hex form (`"\\x0a1b"`).
  mutating func append(bytes value: [UInt8]) {
    separate()
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
    hex.reserveCapacity(2 + value.count * 2)
    for byte in value {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 0xF)])
    }
    try? appendQuoted(hex)  // hex digits hold no NUL
  }

  private mutating func appendQuoted(_ value: [UInt8]) throws(NULInText) {
    bytes.append(UInt8(ascii: "\""))
    for byte in value {
      switch byte {
      case 0: throw NULInText()
      case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
