/// The two-proportion z-test with pooled variance (as statsmodels' `proportions_ztest`), one
/// sided: is the first proportion larger than the second?
public struct TwoProportionTest: Equatable, Sendable {
  /// The z statistic.
  public let z: Double
  /// P(first ≤ second is wrong by chance): the one-sided p-value for "first is larger".
  public let pValue: Double

  /// Tests `successes1 / trials1 > successes2 / trials2`; `nil` when a cohort is empty or
  /// the pooled proportion is 0 or 1 (no variance: the proportions are equal).
  public init?(successes1: Int, trials1: Int, successes2: Int, trials2: Int) {
    guard trials1 > 0, trials2 > 0 else { return nil }
    let n1 = Double(trials1)
    let n2 = Double(trials2)
    let pooled = Double(successes1 + successes2) / (n1 + n2)
    let variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    guard variance > 0 else {
      z = 0
      pValue = 0.5
      return
    }
    z = (Double(successes1) / n1 - Double(successes2) / n2) / variance.squareRoot()
    pValue = NormalDistribution.survival(z)
  }

  /// The method's name, as printed in reports.
  public static let method = "two-proportion z-test (pooled), one-sided"
}
