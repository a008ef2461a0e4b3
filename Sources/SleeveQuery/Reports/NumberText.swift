import Foundation

/// How numbers read in the evidence a verdict carries (`detail`) and in every output: the one
/// home of fixed decimals, percentages and ratios.
public enum NumberText {
  /// A number with a fixed count of decimals (`inf` or `nan` as Foundation prints them).
  public static func fixed(_ value: Double, digits: Int) -> String {
    String(format: "%.\(digits)f", value)
  }

  /// `2.00%` for 0.02; `-` for `nil`.
  public static func percent(_ fraction: Double?) -> String {
    guard let fraction else { return "-" }
    return fixed(fraction * 100, digits: 2) + "%"
  }

  /// `+1.20%` or `-0.35%` for a difference of fractions.
  public static func signedPercent(_ fraction: Double) -> String {
    (fraction >= 0 ? "+" : "") + percent(fraction)
  }

  /// A p-value with four decimals, `<0.0001` below that, `-` when there is none.
  public static func pValue(_ value: Double?) -> String {
    guard let value else { return "-" }
    return value < 0.0001 ? "<0.0001" : fixed(value, digits: 4)
  }

  /// A duration in nanoseconds as people read it: `812 ns`, `32.9 µs`, `4.15 ms`, `1.20 s`;
  /// `-` for `nil`.
  public static func duration(_ nanoseconds: Double?) -> String {
    guard let nanoseconds else { return "-" }
    switch abs(nanoseconds) {
    case ..<1_000: return "\(Int(nanoseconds.rounded())) ns"
    case ..<1_000_000: return fixed(nanoseconds / 1_000, digits: 1) + " µs"
    case ..<1_000_000_000: return fixed(nanoseconds / 1_000_000, digits: 2) + " ms"
    default: return fixed(nanoseconds / 1_000_000_000, digits: 2) + " s"
    }
  }

  /// `1.083x`: a ratio with three decimals.
  public static func ratio(_ value: Double) -> String { fixed(value, digits: 3) + "x" }
}
