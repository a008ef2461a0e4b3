import Foundation
import SleeveQuery

/// How numbers, durations and times read in tables.
enum Formatting {
  /// `850 ns`, `12.4 µs`, `3.21 ms`, `1.50 s`; `-` for `nil`.
  static func duration(_ nanoseconds: Double?) -> String { NumberText.duration(nanoseconds) }

  /// `13.33%`; `-` for `nil`.
  static func percent(_ fraction: Double?) -> String { NumberText.percent(fraction) }

  /// A number with a fixed count of decimals.
  static func fixed(_ value: Double, digits: Int) -> String {
    NumberText.fixed(value, digits: digits)
  }

  /// A raw number for CSV and JSON: an integral value that fits in Int64 as its exact decimal
  /// digits (no decimal point, no exponent), any other as Swift's shortest round-tripping form;
  /// empty for `nil`.
  static func raw(_ value: Double?) -> String {
    guard let value else { return "" }
    return Int64(exactly: value).map { String($0) } ?? String(value)
  }

  /// A raw integer for CSV: its exact decimal digits, whatever its size; empty for `nil`.
  static func raw<Value: BinaryInteger>(_ value: Value?) -> String {
    value.map { String($0) } ?? ""
  }

  /// ISO 8601 in UTC with seconds: `2026-11-30T10:08:15Z`.
  static func timestamp(unixNanoseconds: Int64) -> String {
    let date = Date(timeIntervalSince1970: Double(unixNanoseconds) / 1e9)
    return date.formatted(.iso8601)
  }

  /// `p99` or `p99.9`.
  static func percentileLabel(_ point: Double) -> String {
    "p" + (point == point.rounded() ? String(Int(point)) : String(point))
  }
}
