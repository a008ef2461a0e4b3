import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveQuery

/// The rank statistics on grouped samples (ascending values with counts, as summary
/// histograms' buckets are) give the raw statistics' numbers on the samples expanded, match
/// scipy on a tied sample, and never expand their counts.
@Suite("Rank statistics on grouped samples")
struct GroupedRankStatisticsTests {
  /// A seeded grouped sample: `distinct` values drawn from `range` (so the two samples of a
  /// test share some: ties across samples), each with a count of 1 to `maximumCount`.
  static func grouped(
    distinct: Int, range: ClosedRange<Int64>, maximumCount: Int,
    using generator: inout SeededGenerator
  ) -> [(value: Int64, count: Double)] {
    let values = Set((0..<distinct).map { _ in Int64.random(in: range, using: &generator) })
    return values.sorted().map {
      ($0, Double(Int.random(in: 1...maximumCount, using: &generator)))
    }
  }

  /// The sample a grouped one stands for: each value repeated its count times.
  static func expanded(_ pairs: [(value: Int64, count: Double)]) -> [Int64] {
    pairs.flatMap { Array(repeating: $0.value, count: Int($0.count)) }
  }

  static func sample(_ pairs: [(value: Int64, count: Double)]) throws -> GroupedSample<Int64> {
    try #require(GroupedSample(pairs))
  }

  static func doubles(_ pairs: [(value: Int64, count: Double)]) throws -> GroupedSample<Double> {
    try #require(GroupedSample(pairs.map { (Double($0.value), $0.count) }))
  }

  @Test(
    "grouped Mann-Whitney, van Elteren, Hodges-Lehmann and spread equal the raw ones on the samples expanded",
    arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
  func groupedEqualsRawExpanded(seed: UInt64) throws {
    var generator = SeededGenerator(seed: 0x6A0_0BED &+ seed)
    // Few distinct values with large counts (many ties within and across samples), or many
    // values with small counts; m·n stays under HodgesLehmann.maximumPairs (no subsample).
    let (distinct, range, maximumCount) =
      seed % 2 == 0 ? (12, Int64(100)...130, 40) : (150, Int64(-5_000)...5_000, 4)
    let first = Self.grouped(
      distinct: distinct, range: range, maximumCount: maximumCount, using: &generator)
    let second = Self.grouped(
      distinct: distinct, range: range.lowerBound + 3...range.upperBound + 3,
      maximumCount: maximumCount, using: &generator)
    let rawFirst = Self.expanded(first)
    let rawSecond = Self.expanded(second)

    for (a, b, rawA, rawB) in [
      (first, second, rawFirst, rawSecond), (second, first, rawSecond, rawFirst),
    ] {
      let grouped = try #require(MannWhitneyTest(grouped: try Self.sample(a), try Self.sample(b)))
      let raw = try #require(MannWhitneyTest(rawA, rawB))
      #expect(grouped.u == raw.u, "seed \(seed)")
      #expect(abs(grouped.pValue - raw.pValue) <= 1e-12, "seed \(seed)")
      #expect(abs(grouped.z - raw.z) <= 1e-12, "seed \(seed)")

      let shift = try #require(HodgesLehmann.shift(grouped: try Self.doubles(a), Self.doubles(b)))
      let rawShift = try #require(HodgesLehmann.shift(rawA, rawB))
      #expect(!rawShift.subsampled)
      #expect(shift == rawShift.estimate, "seed \(seed)")
    }

    let spread = DetectableEffect.robustSpread(grouped: try Self.doubles(first))
    #expect(spread == DetectableEffect.robustSpread(rawFirst), "seed \(seed)")
    let points = [0, 1, 25, 50, 95, 99, 99.9, 100]
    var copy = rawFirst
    #expect(
      Percentile.of(grouped: try Self.doubles(first), at: points)
        == Percentile.of(&copy, at: points), "seed \(seed)")

    // Two strata, the second split off the first sample's upper half.
    let strata = [(first, second), (Array(second.prefix(distinct / 2)), first)]
    let groupedStrata = try strata.map {
      (first: try Self.sample($0.0), second: try Self.sample($0.1))
    }
    let rawStrata = strata.map { (first: Self.expanded($0.0), second: Self.expanded($0.1)) }
    let stratified = try #require(StratifiedRankTest(grouped: groupedStrata))
    let rawStratified = try #require(StratifiedRankTest(rawStrata))
    #expect(abs(stratified.pValue - rawStratified.pValue) <= 1e-12, "seed \(seed)")
    #expect(abs(stratified.z - rawStratified.z) <= 1e-12, "seed \(seed)")
    #expect(stratified.strataUsed == rawStratified.strataUsed)
  }

  /// The tied sample of the scipy references: bucket-like values, each repeated.
  static let first: [(value: Double, count: Double)] = [(1.5, 3), (2.25, 5), (3.0, 2), (4.5, 4)]
  static let second: [(value: Double, count: Double)] = [(1.5, 6), (2.25, 2), (3.75, 3), (4.5, 1)]

  /// Reference values computed once with Python 3, numpy 2.4.6 and scipy 1.17.1:
  ///
  ///     x = np.repeat([1.5, 2.25, 3.0, 4.5], [3, 5, 2, 4])
  ///     y = np.repeat([1.5, 2.25, 3.75, 4.5], [6, 2, 3, 1])
  ///     scipy.stats.mannwhitneyu(x, y, alternative=alt, method='asymptotic',
  ///                              use_continuity=cc)   # statistic 106.0 in every case
  ///     # greater, True: 0.1259154135902249    greater, False: 0.1204855587766015
  ///     # less, True:    0.8847772581993019    less, False:    0.8795144412233985
  ///     np.median((x[:, None] - y[None, :]).ravel())     # 0.75
  ///     q = np.percentile(x, [25, 75]); (q[1] - q[0]) / 1.349   # 1.3899184581171238
  @Test(
    "on a tied grouped sample, Mann-Whitney both ways with and without continuity matches scipy")
  func groupedMatchesScipy() throws {
    let x = try #require(GroupedSample(Self.first))
    let y = try #require(GroupedSample(Self.second))
    let greater = try #require(MannWhitneyTest(grouped: x, y))
    #expect(greater.u == 106)
    #expect(abs(greater.pValue - 0.1259154135902249) < 1e-12)
    // alternative='less' for x is 'greater' for y; its U is n₁n₂ − 106 = 62.
    let less = try #require(MannWhitneyTest(grouped: y, x))
    #expect(less.u == 62)
    #expect(abs(less.pValue - 0.8847772581993019) < 1e-12)
    // van Elteren with one stratum is Mann-Whitney without continuity correction.
    let greaterPlain = try #require(StratifiedRankTest(grouped: [(x, y)]))
    #expect(abs(greaterPlain.pValue - 0.1204855587766015) < 1e-12)
    let lessPlain = try #require(StratifiedRankTest(grouped: [(y, x)]))
    #expect(abs(lessPlain.pValue - 0.8795144412233985) < 1e-12)
    #expect(HodgesLehmann.shift(grouped: x, y) == 0.75)
    #expect(HodgesLehmann.shift(grouped: y, x) == -0.75)
    let spread = try #require(DetectableEffect.robustSpread(grouped: x))
    #expect(abs(spread - 1.3899184581171238) < 1e-12)
  }

  @Test("counts in the billions rank in O(values): no trap, no expansion, proportional answers")
  func billionsOfValues() throws {
    let scale = 3_000_000_000.0
    let x = try #require(GroupedSample(Self.first.map { ($0.value, $0.count * scale) }))
    let y = try #require(GroupedSample(Self.second.map { ($0.value, $0.count * scale) }))
    // The median difference depends only on the proportions here; the quartiles no longer
    // interpolate across runs (ranks 0.25·N and 0.75·N fall inside the 2.25 and 4.5 runs).
    #expect(HodgesLehmann.shift(grouped: x, y) == 0.75)
    let spread = try #require(DetectableEffect.robustSpread(grouped: x))
    #expect(spread == (4.5 - 2.25) / 1.349)
    // A sample against itself: no shift, the rank-sum excess 0, so only the continuity
    // correction moves p off one half.
    let same = try #require(MannWhitneyTest(grouped: x, x))
    #expect(same.pValue > 0.5 && same.pValue < 0.5 + 1e-9)
    // 4.2e10 values a side: a real difference is overwhelming.
    let shifted = try #require(MannWhitneyTest(grouped: x, y))
    #expect(shifted.pValue < 1e-100)
    #expect(abs(shifted.u / (106 * scale * scale) - 1) < 1e-12)
  }

  @Test("a grouped sample must ascend with whole counts; equal neighbours join, zeros drop")
  func groupedSampleChecksItsInput() throws {
    #expect(GroupedSample<Double>([(2, 1), (1, 1)]) == nil)
    #expect(GroupedSample<Double>([(1, -1)]) == nil)
    #expect(GroupedSample<Double>([(1, 0.5)]) == nil)
    #expect(GroupedSample<Double>([(1, .infinity)]) == nil)
    #expect(GroupedSample<Double>([(1, .nan)]) == nil)
    let joined = try #require(GroupedSample<Double>([(1, 2), (1, 3), (2, 0), (4, 1)]))
    #expect(joined.values == [1, 4])
    #expect(joined.counts == [5, 1])
    #expect(joined.total == 6)
    #expect(MannWhitneyTest(grouped: joined, GroupedSample<Double>([])!) == nil)
    #expect(HodgesLehmann.shift(grouped: GroupedSample<Double>([])!, joined) == nil)
    #expect(DetectableEffect.robustSpread(grouped: GroupedSample<Double>([])!) == nil)
  }

  static func histogram(_ values: [Int64], maximumScale: Int = 5) -> ExponentialHistogram {
    var histogram = ExponentialHistogram(maximumScale: maximumScale)
    for value in values { histogram.add(value) }
    return histogram
  }

  @Test("a histogram's grouped sample ties each bucket at the value lowerPercentile gives it")
  func histogramBucketsAreLowerPercentileValues() throws {
    var generator = SeededGenerator(seed: 0xB0C7)
    let values: [Int64] =
      [0, 0, -3] + (0..<2_000).map { _ in Int64.random(in: 1_000...50_000_000, using: &generator) }
    let histogram = Self.histogram(values)
    let sample = try #require(GroupedSample(histogram: histogram, scale: histogram.scale))
    #expect(sample.total == Double(values.count))
    #expect(sample.values == sample.values.sorted())
    #expect(Set(sample.values).count == sample.values.count)
    // Every rank's value in the grouped sample is the histogram's percentile by rank.
    let n = Double(values.count)
    var seen = 0.0
    for (value, count) in zip(sample.values, sample.counts) {
      // Half a rank past the run's first, so numpy's floor((n − 1)·p/100) lands on it.
      let point = (seen + 0.5) / (n - 1) * 100
      #expect(histogram.lowerPercentile(point) == value, "rank \(seen)")
      seen += count
    }
    // The zero bucket (0 and -3) is one run at 0; the last bucket's value is clamped to the
    // largest value.
    #expect(sample.values.first == 0 && sample.counts.first == 3)
    #expect(sample.values.last! <= Double(values.max()!))
    // Each value is within the relative error of its bucket's value.
    let error = histogram.relativeError
    for value in values where value > 0 {
      let bucket = sample.values.first {
        $0 > 0 && abs($0 - Double(value)) <= error * Double(value) * 1.000001
      }
      #expect(bucket != nil, "value \(value)")
    }
  }

  @Test("bucketed at a lower scale, a histogram's buckets join 2^(own − lower) at a time")
  func histogramAtLowerScale() throws {
    let histogram = Self.histogram([1_000, 1_010, 1_020, 1_500, 2_000, 3_000, 4_000])
    let own = try #require(GroupedSample(histogram: histogram, scale: 5))
    let lower = try #require(GroupedSample(histogram: histogram, scale: 2))
    #expect(lower.total == own.total)
    #expect(lower.values.count < own.values.count)
    // At scale 2 a bucket spans 2^(1/4): 1,000…1,020 share one, 4,000 is two octaves up.
    #expect(lower.counts.first == 3)
    #expect(GroupedSample(histogram: histogram, scale: 6) == nil)
    #expect(GroupedSample(histogram: ExponentialHistogram(), scale: 5)?.isEmpty == true)
  }

  @Test("method notes state the bucket error: ±1.083% at scale 5")
  func methodNotesStateTheBound() {
    #expect(
      HistogramSample.methodNote(scale: 5)
        == " on summary histograms (ties within a bucket, ±1.083%)")
    #expect(HistogramSample.percentileMethod(scale: 4).hasSuffix("±2.166%"))
  }
}
