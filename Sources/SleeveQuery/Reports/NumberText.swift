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

  /// `1.083x`: a ratio with three decimals.
  public static func ratio(_ value: Double) -> String { fixed(value, digits: 3) + "x" }
}
