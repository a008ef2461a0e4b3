/// The van Elteren test (a stratified Wilcoxon-Mann-Whitney test), one-sided: are the first
/// group's values larger, consistently across strata (one stratum per test, say)?
///
/// Each stratum i ranks its own values (midranks), so a slow test never outranks a fast one;
/// its rank-sum excess W − n₁(Nᵢ + 1)/2 is weighted by 1/(Nᵢ + 1) and its variance (with the
/// stratum's own tie correction) by 1/(Nᵢ + 1)², as van Elteren (1960) weights them; the normal
/// approximation gives z = Σwᵢ(Wᵢ − Eᵢ) / √Σwᵢ²Varᵢ, without continuity correction, and the
/// p-value is its upper tail. z² is SAS PROC FREQ's CMH row-mean-scores statistic with
/// `SCORES=MODRIDIT`, its documented way to get van Elteren's test. One stratum gives the
/// Mann-Whitney z without continuity correction (scipy's `mannwhitneyu(x, y,
/// alternative="greater", use_continuity=False, method="asymptotic")`).
///
/// With no variance (every stratum used has all its values tied) there is no evidence either
/// way: the p-value is 1 and ``noVariance`` is true, as for ``MannWhitneyTest``. Ranking takes
/// O(n log n) time and one copy of the values (see ``RankSum``); any `Int64` values rank
/// without overflow.
public struct StratifiedRankTest: Equatable, Sendable {
  /// The standardized statistic (0 when there is no variance).
  public let z: Double
  /// The one-sided p-value for "the first group's values are larger" (1 with no variance).
  public let pValue: Double
  /// Whether every stratum used has all its values tied, so the statistic has no variance.
  public let noVariance: Bool
  /// The number of strata with both groups present (a value on each side); only they count.
  public let strataUsed: Int

  /// Tests the strata; `nil` when no stratum has both groups.
  public init?(_ strata: [(first: [Int64], second: [Int64])]) {
    self.init(
      ranked: strata.lazy.filter { !$0.first.isEmpty && !$0.second.isEmpty }.map {
        RankSum($0.first, $0.second)
      })
  }

  /// Tests grouped strata (ascending values with their counts, e.g. summary histograms'
  /// buckets), in O(distinct values) per stratum whatever the counts: the same answer as
  /// ``init(_:)`` on the strata expanded. `nil` when no stratum has both groups.
  init?<Value>(grouped strata: [(first: GroupedSample<Value>, second: GroupedSample<Value>)]) {
    self.init(
      ranked: strata.lazy.filter { !$0.first.isEmpty && !$0.second.isEmpty }.map {
        RankSum(grouped: $0.first, $0.second)
      })
  }

  /// The test of the strata's rankings (each with both groups present).
  private init?(ranked: some Sequence<RankSum>) {
    var excess = 0.0
    var variance = 0.0
    var used = 0
    for ranks in ranked {
      let weight = 1 / (ranks.count1 + ranks.count2 + 1)
      excess += weight * (ranks.first - ranks.nullMean)
      variance += weight * weight * ranks.nullVariance
      used += 1
    }
    guard used > 0 else { return nil }
    strataUsed = used
    let test = OneSidedNormal(excess: excess, variance: variance)
    (z, pValue, noVariance) = (test.z, test.pValue, test.noVariance)
  }

  /// The method's name, as printed in reports.
  public static let method =
    "van Elteren stratified Wilcoxon-Mann-Whitney, one-sided, normal approximation with tie"
    + " correction"
}
