/// The two-proportion z-test with pooled variance (as statsmodels' `proportions_ztest`), one
/// sided: is the first proportion larger than the second?
///
/// With no variance (a pooled proportion of 0 or 1: both cohorts all successes or all
/// failures, so the proportions are equal) there is no evidence either way: the p-value is 1
/// and ``noVariance`` is true, as for ``MannWhitneyTest`` (statsmodels divides 0 by 0 there and
/// returns nan).
public struct TwoProportionTest: Equatable, Sendable {
  /// The z statistic (0 when there is no variance).
  public let z: Double
  /// P(first ≤ second is wrong by chance): the one-sided p-value for "first is larger" (1 when
  /// there is no variance).
  public let pValue: Double
  /// Whether the pooled proportion is 0 or 1, so the statistic has no variance.
  public let noVariance: Bool

  /// Tests `successes1 / trials1 > successes2 / trials2`; `nil` when a cohort is empty.
  public init?(successes1: Int, trials1: Int, successes2: Int, trials2: Int) {
    guard trials1 > 0, trials2 > 0 else { return nil }
    let n1 = Double(trials1)
    let n2 = Double(trials2)
    let pooled = Double(successes1 + successes2) / (n1 + n2)
    let variance = pooled * (1 - pooled) * (1 / n1 + 1 / n2)
    guard variance > 0 else {
      z = 0
      pValue = 1
      noVariance = true
      return
    }
    z = (Double(successes1) / n1 - Double(successes2) / n2) / variance.squareRoot()
    pValue = NormalDistribution.survival(z)
    noVariance = false
  }

  /// The method's name, as printed in reports.
  public static let method = "two-proportion z-test (pooled), one-sided"
}
