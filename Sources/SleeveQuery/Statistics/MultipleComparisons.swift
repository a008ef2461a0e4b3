/// Multiple-comparison adjustments for the many rows of one comparison, each returning adjusted
/// p-values in the input's order, capped at 1.
///
/// Holm controls the family-wise error rate (the chance of any false alarm among all rows), so
/// it is the one to decide an exit code with; Benjamini-Hochberg controls the false discovery
/// rate (the expected share of false alarms among the rows flagged), so its q-values are the
/// ones to show. Both match statsmodels' `multipletests(method="holm")` and
/// `multipletests(method="fdr_bh")`.
///
/// Input that is not a probability is made one, never trapped on: NaN counts as 1 (a test that
/// could not be computed gives no evidence, and it still counts as a comparison made), and any
/// other value outside 0…1 (±∞ included) is clamped into it. Equal p-values always get equal
/// adjusted values, whatever their order. Both run in O(m log m) time and O(m) memory.
///
///     MultipleComparisons.holm([0.01, 0.04, 0.03, 0.005])  // [0.03, 0.06, 0.06, 0.02]
public enum MultipleComparisons {
  /// The Holm method's name, as printed in reports.
  public static let holmMethod = "Holm-Bonferroni step-down (family-wise error rate)"
  /// The Benjamini-Hochberg method's name, as printed in reports.
  public static let benjaminiHochbergMethod =
    "Benjamini-Hochberg step-up q-values (false discovery rate)"

  /// Holm-Bonferroni step-down adjusted p-values (as statsmodels
  /// `multipletests(method="holm")`): for the i-th smallest of m p-values,
  /// max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎).
  ///
  /// A row is significant at family-wise level α exactly when its adjusted value is ≤ α.
  public static func holm(_ pValues: [Double]) -> [Double] {
    let p = pValues.map(probability)
    let count = Double(p.count)
    var adjusted = [Double](repeating: 1, count: p.count)
    var running = 0.0
    for (rank, index) in ascendingOrder(p).enumerated() {
      running = max(running, min(1, (count - Double(rank)) * p[index]))
      adjusted[index] = running
    }
    return adjusted
  }

  /// Benjamini-Hochberg q-values (as statsmodels `multipletests(method="fdr_bh")`): for the
  /// i-th smallest of m p-values, min over j ≥ i of min(1, p₍ⱼ₎·m / j).
  ///
  /// Flagging every row with a q-value ≤ q keeps the expected share of false discoveries among
  /// the flagged rows at most q (for independent or positively dependent tests).
  public static func benjaminiHochberg(_ pValues: [Double]) -> [Double] {
    let p = pValues.map(probability)
    let count = Double(p.count)
    var adjusted = [Double](repeating: 1, count: p.count)
    var running = 1.0
    for (rank, index) in ascendingOrder(p).enumerated().reversed() {
      running = min(running, p[index] * count / Double(rank + 1))
      adjusted[index] = running
    }
    return adjusted
  }

  /// The value as a probability: NaN is 1, the rest clamped into 0…1.
  private static func probability(_ value: Double) -> Double {
    value.isNaN ? 1 : min(max(value, 0), 1)
  }

  /// The indices of `values` from the smallest value to the largest (ties by index).
  private static func ascendingOrder(_ values: [Double]) -> [Int] {
    values.indices.sorted { values[$0] < values[$1] || (values[$0] == values[$1] && $0 < $1) }
  }
}
