import SleeveStore

/// Rows in the text format of PostgreSQL's `COPY … FROM STDIN`: columns separated by tabs,
/// rows ended by newlines, `\N` for NULL, and in values a backslash, tab, newline or carriage
/// return escaped. Built from bytes, so no text can end a value, a row or the stream early.
struct CopyRows {
  /// The encoded rows.
  private(set) var data: [UInt8] = []
  private var columnInRow = 0

  /// Text PostgreSQL cannot store: a NUL character (its `text` type ends at one).
  struct NULInText: Error {}

  private mutating func separate() {
    if columnInRow > 0 { data.append(UInt8(ascii: "\t")) }
    columnInRow += 1
  }

  /// Appends NULL.
  mutating func appendNull() {
    separate()
    data += [UInt8(ascii: "\\"), UInt8(ascii: "N")]
  }

  /// Appends an integer.
  mutating func append(_ value: Int64) {
    separate()
    data += Array(String(value).utf8)
  }

  /// Appends a double, in a form that reads back as the same double (`nan`, `inf` as
  /// PostgreSQL spells them).
  mutating func append(_ value: Double) {
    separate()
    if value.isNaN {
      data += Array("NaN".utf8)
    } else if value.isInfinite {
      data += Array((value < 0 ? "-Infinity" : "Infinity").utf8)
    } else {
      data += Array(String(value).utf8)
    }
  }

  /// Appends text, escaped.
  ///
  /// - Throws: ``NULInText`` for text holding NUL.
  mutating func append(_ text: String) throws(NULInText) {
    separate()
    for byte in text.utf8 {
      switch byte {
      case 0: throw NULInText()
      case UInt8(ascii: "\\"): data += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
      case UInt8(ascii: "\t"): data += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
      case UInt8(ascii: "\n"): data += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
      case UInt8(ascii: "\r"): data += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
      default: data.append(byte)
      }
    }
  }

  /// Appends bytes as a `bytea` in hex form (`\\x…` once COPY's own escape is applied).
  mutating func append(bytes: [UInt8]) {
    separate()
    let digits = Array("0123456789abcdef".utf8)
    data += [UInt8(ascii: "\\"), UInt8(ascii: "\\"), UInt8(ascii: "x")]
    data.reserveCapacity(data.count + bytes.count * 2)
    for byte in bytes {
      data.append(digits[Int(byte >> 4)])
      data.append(digits[Int(byte & 0xF)])
    }
  }

  /// Ends the row.
  mutating func endRow() {
    data.append(UInt8(ascii: "\n"))
    columnInRow = 0
  }
}
