import CPostgres
import SleeveStore

/// The rows a statement returned, in libpq's text format, read in place (freed with the
/// result).
final class PostgresResult {
  private let handle: OpaquePointer

  init(_ handle: OpaquePointer) { self.handle = handle }
  deinit { PQclear(handle) }

  /// How many rows.
  var count: Int { Int(PQntuples(handle)) }
  /// How many columns.
  var columns: Int { Int(PQnfields(handle)) }

  /// Whether the value at `row`, `column` is NULL.
  func isNull(_ row: Int, _ column: Int) -> Bool {
    PQgetisnull(handle, Int32(row), Int32(column)) != 0
  }

  /// The value's bytes (text format), `nil` for NULL.
  func withBytes<Result>(
    _ row: Int, _ column: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result
  ) rethrows -> Result {
    guard !isNull(row, column), let value = PQgetvalue(handle, Int32(row), Int32(column)) else {
      return try body(nil)
    }
    let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
    return try value.withMemoryRebound(to: UInt8.self, capacity: length) {
      try body(UnsafeBufferPointer(start: $0, count: length))
    }
  }

  /// The value as text, `nil` for NULL.
  func text(_ row: Int, _ column: Int) -> String? {
    withBytes(row, column) { bytes in bytes.map { String(decoding: $0, as: UTF8.self) } }
  }

  /// The value as a 64-bit integer, `nil` for NULL or text that is not one.
  func integer(_ row: Int, _ column: Int) -> Int64? {
    withBytes(row, column) { bytes -> Int64? in
      guard let bytes, !bytes.isEmpty else { return nil }
      var value: Int64 = 0
      var negative = false
      for (index, byte) in bytes.enumerated() {
        if index == 0, byte == UInt8(ascii: "-") {
          negative = true
          continue
        }
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        let digit = Int64(byte - UInt8(ascii: "0"))
        let (times, overflowA) = value.multipliedReportingOverflow(by: 10)
        let (next, overflowB) =
          negative
          ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
        guard !overflowA, !overflowB else { return nil }
        value = next
      }
      return value
    }
  }

  /// The value as a double, `nil` for NULL or text that is not one.
  func real(_ row: Int, _ column: Int) -> Double? {
    text(row, column).flatMap(Double.init)
  }

  /// A `bytea` value in the text format's hex form (`\x0a1b…`) decoded, `nil` for NULL or a
  /// value not in that form.
  func bytes(_ row: Int, _ column: Int) -> [UInt8]? {
    withBytes(row, column) { text -> [UInt8]? in
      guard let text, text.count >= 2, text[0] == UInt8(ascii: "\\"),
        text[1] == UInt8(ascii: "x"), text.count % 2 == 0
      else { return nil }
      var decoded: [UInt8] = []
      decoded.reserveCapacity((text.count - 2) / 2)
      var index = 2
      while index < text.count {
        guard let high = HexDigit.value(text[index]),
          let low = HexDigit.value(text[index + 1])
        else {
          return nil
        }
        decoded.append(high << 4 | low)
        index += 2
      }
      return decoded
    }
  }

}

@available(*, unavailable)
extension PostgresResult: Sendable {}
