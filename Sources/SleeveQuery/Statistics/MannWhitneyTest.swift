/// The Mann-Whitney U test, one-sided (are the first sample's values larger?), by the normal
/// approximation with tie correction and continuity correction: the same numbers as scipy's
/// `mannwhitneyu(x, y, alternative="greater", method="asymptotic")`.
///
/// With no variance (every value of both samples tied) there is no evidence either way: the
/// p-value is 1 and ``noVariance`` is true, as for ``TwoProportionTest`` (scipy gives 1 here
/// too: its continuity correction makes z = −∞).
public struct MannWhitneyTest: Equatable, Sendable {
  /// U for the first sample: the number of pairs (x, y) with x > y, ties counting half.
  public let u: Double
  /// The standardized statistic (0 when there is no variance).
  public let z: Double
  /// The one-sided p-value for "the first sample is stochastically larger" (1 when there is
  /// no variance).
  public let pValue: Double
  /// Whether every value is tied, so the statistic has no variance.
  public let noVariance: Bool

  /// Tests `first` against `second`; `nil` when either is empty.
  public init?(_ first: [Int64], _ second: [Int64]) {
    guard !first.isEmpty, !second.isEmpty else { return nil }
    self.init(ranks: RankSum(first, second))
  }

  /// Tests `first` against `second`, both in ascending order (unchecked), without copying
  /// them; the same answer as ``init(_:_:)``. `nil` when either is empty.
  init?(sorted first: [Int64], _ second: [Int64]) {
    guard !first.isEmpty, !second.isEmpty else { return nil }
    self.init(ranks: RankSum(sorted: first, second))
  }

  /// Tests grouped `first` against grouped `second` (ascending values with their counts, e.g.
  /// summary histograms' buckets, ``GroupedSample/init(histogram:scale:)``), in O(distinct
  /// values) whatever the counts: the same answer as ``init(_:_:)`` on the samples expanded.
  /// `nil` when either is empty.
  init?<Value>(grouped first: GroupedSample<Value>, _ second: GroupedSample<Value>) {
    guard !first.isEmpty, !second.isEmpty else { return nil }
    self.init(ranks: RankSum(grouped: first, second))
  }

  private init(ranks: RankSum) {
    let n1 = ranks.count1
    let n2 = ranks.count2
    u = ranks.first - n1 * (n1 + 1) / 2
    let mean = n1 * n2 / 2
    let variance = ranks.nullVariance
    guard variance > 0 else {
      z = 0
      pValue = 1
      noVariance = true
      return
    }
    z = (u - mean - 0.5) / variance.squareRoot()
    pValue = NormalDistribution.survival(z)
    noVariance = false
  }

  /// The method's name, as printed in reports.
  public static let method =
    "Mann-Whitney U, one-sided, normal approximation with tie and continuity corrections"
}

/// The Hodges-Lehmann estimate of the shift between two samples: the median of all pairwise
/// differences (first − second).
///
/// Differences of raw durations are exact (`Int128`, so `Int64.max` against `Int64.min` is
/// never wrapped) and the median of an even number of them is their exact midpoint, rounded
/// once to a `Double` (``PairwiseDifferences``): at 2^62 ns the shift is as exact as at 0.
public enum HodgesLehmann {
  /// Pairs beyond this are estimated from evenly spaced subsamples of both cohorts (raw
  /// samples only: grouped ones are never subsampled).
  public static let maximumPairs = 1_000_000

  /// The shift estimate and whether it came from subsamples; `nil` when a sample is empty.
  public static func shift(_ first: [Int64], _ second: [Int64]) -> (
    estimate: Double, subsampled: Bool
  )? {
    shift(sorted: RadixSort.sorted(first), RadixSort.sorted(second))
  }

  /// The same answer as ``shift(_:_:)`` for samples already in ascending order (unchecked),
  /// without copying them: the median is selected among the pairwise differences without
  /// forming them (``PairwiseDifferences``).
  static func shift(sorted first: [Int64], _ second: [Int64]) -> (
    estimate: Double, subsampled: Bool
  )? {
    guard !first.isEmpty, !second.isEmpty else { return nil }
    var left = first
    var right = second
    let subsampled = left.count * right.count > maximumPairs
    if subsampled {
      let side = Int(Double(maximumPairs).squareRoot())
      left = evenlySpaced(left, count: min(side, left.count))
      right = evenlySpaced(right, count: min(side, right.count))
    }
    let median = PairwiseDifferences(sorted: left, right).percentile(50)
    return (median, subsampled)
  }

  /// The shift of grouped samples (values with counts, e.g. summary histograms' buckets): the
  /// weighted median of the differences of their values, each difference x − y counted
  /// count(x)·count(y) times; the same answer as ``shift(_:_:)`` on the samples expanded when
  /// that takes no subsample. Never subsampled: O((values₁ + values₂)·64) time whatever the
  /// counts. `nil` when a sample is empty.
  static func shift(grouped first: GroupedSample<Double>, _ second: GroupedSample<Double>)
    -> Double?
  {
    guard !first.isEmpty, !second.isEmpty else { return nil }
    return PairwiseDifferences(grouped: first, second).percentile(50)
  }

  private static func evenlySpaced(_ sorted: [Int64], count: Int) -> [Int64] {
    guard count < sorted.count else { return sorted }
    return (0..<count).map { sorted[$0 * sorted.count / count] }
  }
}
