/// A 64-bit FNV-1a hash over a canonical encoding of SQLite values: the one home of how the
/// summary checksums (`Migrations/0009_summary_checksums.sql`) read a row.
///
/// Each value is a type tag then its bytes: NULL `0`; an integer `1` and its 8 bytes,
/// little-endian; a real `2` and its IEEE 754 bits; text `3`, its UTF-8 length (8 bytes) and
/// bytes; a blob `4`, its length and bytes. So two rows hash alike only when every column has
/// the same type and the same bytes (a count stored as text, or a blob one byte longer, is a
/// different row), and no value can run into the next.
///
/// FNV-1a is a checksum, not a signature: it finds damage and edits that did not recompute
/// it, which is what a file on disk meets; it does not resist someone who recomputes it.
public struct SummaryDigest: Equatable, Sendable {
  /// The hash so far.
  public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  /// A digest that starts with `domain` (as text), so digests of different things never
  /// compare equal by construction.
  public init(domain: String) {
    add(text: domain)
  }

  /// The value as stored: the same 64 bits as a signed integer.
  public var stored: Int64 { Int64(bitPattern: value) }

  /// Adds one byte.
  mutating func add(byte: UInt8) {
    value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
  }

  /// Adds the 8 bytes of `word`, little-endian.
  mutating func add(word: UInt64) {
    var rest = word
    for _ in 0..<8 {
      add(byte: UInt8(truncatingIfNeeded: rest))
      rest >>= 8
    }
  }

  /// Adds an integer value.
  mutating func add(integer: Int64) {
    add(byte: 1)
    add(word: UInt64(bitPattern: integer))
  }

  /// Adds a value that may be NULL.
  mutating func add(_ integer: Int64?) {
    guard let integer else { return add(byte: 0) }
    add(integer: integer)
  }

  /// Adds a text value.
  mutating func add(text: String) {
    add(byte: 3)
    add(word: UInt64(text.utf8.count))
    for byte in text.utf8 { add(byte: byte) }
  }

  /// Adds column `column` of `row`'s current row, by its type.
  mutating func add(column: Int32, of row: Statement) {
    if let bytes = row.blob(at: column) {
      add(byte: 4)
      add(word: UInt64(bytes.count))
      for byte in bytes { add(byte: byte) }
      return
    }
    switch row.value(at: column) {
    case .null: add(byte: 0)
    case .integer(let integer): add(integer: integer)
    case .real(let real):
      add(byte: 2)
      add(word: real.bitPattern)
    case .text(let text): add(text: text)
    }
  }

  /// Adds columns `columns` of `row`'s current row, in order.
  mutating func add(columns: Range<Int32>, of row: Statement) {
    for column in columns { add(column: column, of: row) }
  }
}
