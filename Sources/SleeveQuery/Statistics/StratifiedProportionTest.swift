/// The Cochran-Mantel-Haenszel test across strata (one stratum per test, say), one-sided: is the
/// first group's proportion larger, consistently across strata?
///
/// Compares like with like: each stratum's 2×2 table (group × success) adds the first group's
/// successes beyond their expectation given the stratum's margins, and its hypergeometric
/// variance, so a stratum where both groups are equally likely to succeed adds nothing however
/// its size differs between the groups. Without continuity correction, the square of ``z`` is
/// statsmodels' `StratifiedTable(tables).test_null_odds(correction=False).statistic`, and SAS
/// PROC FREQ's CMH statistic; ``z`` takes the sign of Σ(a − E[a]) and the p-value is its upper
/// tail.
///
/// With no variance (in every stratum used, both groups all successes or all failures) there
/// is no evidence either way: the p-value is 1 and ``noVariance`` is true, as for
/// ``TwoProportionTest``. Counts are taken as `Double` (exact to 2⁵³; the products in the
/// variance, up to about 10⁷⁶, stay far inside its range), so any `Int` counts give an answer
/// and nothing traps. A stratum with successes outside 0…trials is clamped into it.
public struct StratifiedProportionTest: Equatable, Sendable {
  /// One stratum's counts: successes out of trials for each group.
  public struct Stratum: Equatable, Sendable {
    /// The first group's successes (failures, errors: whatever is counted).
    public let successes1: Int
    /// The first group's trials.
    public let trials1: Int
    /// The second group's successes.
    public let successes2: Int
    /// The second group's trials.
    public let trials2: Int

    /// A stratum of `successes1` out of `trials1` against `successes2` out of `trials2`.
    public init(successes1: Int, trials1: Int, successes2: Int, trials2: Int) {
      self.successes1 = successes1
      self.trials1 = trials1
      self.successes2 = successes2
      self.trials2 = trials2
    }
  }

  /// The standardized statistic Σ(a − E[a]) / √ΣVar(a) (0 when there is no variance).
  public let z: Double
  /// The one-sided p-value for "the first group's proportion is larger" (1 with no variance).
  public let pValue: Double
  /// Whether no stratum used has both successes and failures, so the statistic has no variance.
  public let noVariance: Bool
  /// The number of strata with both groups present (trials on each side); only they count.
  public let strataUsed: Int

  /// Tests the strata; `nil` when no stratum has both groups.
  public init?(_ strata: [Stratum]) {
    var excess = 0.0
    var variance = 0.0
    var used = 0
    for stratum in strata where stratum.trials1 > 0 && stratum.trials2 > 0 {
      let n1 = Double(stratum.trials1)
      let n2 = Double(stratum.trials2)
      let a = Double(min(max(stratum.successes1, 0), stratum.trials1))
      let c = Double(min(max(stratum.successes2, 0), stratum.trials2))
      let n = n1 + n2
      let successes = a + c
      let failures = n - successes
      excess += a - n1 * successes / n
      // Dividing step by step keeps every intermediate within Double's range.
      variance += (n1 / n) * (n2 / n) * successes * (failures / (n - 1))
      used += 1
    }
    guard used > 0 else { return nil }
    strataUsed = used
    let test = OneSidedNormal(excess: excess, variance: variance)
    (z, pValue, noVariance) = (test.z, test.pValue, test.noVariance)
  }

  /// The method's name, as printed in reports.
  public static let method =
    "Cochran-Mantel-Haenszel across strata, one-sided, no continuity correction"
}
