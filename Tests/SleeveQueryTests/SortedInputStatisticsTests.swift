import SleeveTestSupport
import Testing

@testable import SleeveQuery

/// The sorted-input paths a diff takes (each side sorted once, then ranked, percentiled and
/// paired) give the very numbers of the paths that sort or form everything themselves.
@Suite("Statistics on sorted samples")
struct SortedInputStatisticsTests {
  /// Seeded samples: wide values of both signs with the extremes, few distinct values (many
  /// ties), durations-like values, or one value repeated.
  static func sample(_ kind: Int, count: Int, using generator: inout SeededGenerator) -> [Int64] {
    (0..<count).map { index in
      switch kind {
      case 0:
        index % 97 == 0
          ? [Int64.min, Int64.max, 0, -1][index % 4]
          : Int64.random(in: .min ... .max, using: &generator)
      case 1: Int64.random(in: -3...3, using: &generator)
      case 2: 1_000 + Int64.random(in: 0..<1_000_000, using: &generator)
      default: 42
      }
    }
  }

  @Test(
    "radix sort orders any Int64s exactly as sorted() does",
    arguments: [0, 1, 2, 255, 256, 257, 5_000, 100_003])
  func radixSortMatchesSorted(count: Int) {
    for kind in 0..<4 {
      let seed: UInt64 = 0xAD1C_5027 &+ UInt64(count * 4 + kind)
      var generator = SeededGenerator(seed: seed)
      let values = Self.sample(kind, count: count, using: &generator)
      #expect(RadixSort.sorted(values) == values.sorted(), "kind \(kind), seed \(seed)")
    }
  }

  @Test("radix sort of several parts is their concatenation, sorted")
  func radixSortConcatenates() {
    let seed: UInt64 = 0xC0_4CA7
    var generator = SeededGenerator(seed: seed)
    let parts = (0..<5).map { kind in Self.sample(kind % 4, count: 300 * kind, using: &generator) }
    #expect(
      RadixSort.sorted(concatenating: parts) == parts.flatMap { $0 }.sorted(), "seed \(seed)")
  }

  @Test("difference order keys keep the order of differences and map back to the same bits")
  func orderKeysFollowDifferenceOrder() {
    let values: [Double] = [
      -.infinity, -.greatestFiniteMagnitude, -1e300, -2, -1, -.leastNonzeroMagnitude, -0.0, 0.0,
      .leastNonzeroMagnitude, .leastNormalMagnitude, 1, 9.3e18, .greatestFiniteMagnitude,
      .infinity,
    ]
    let keys = values.map { Double.orderKey(of: $0) }
    #expect(keys == keys.sorted())
    #expect(Set(keys).count == keys.count)
    #expect(keys.map { Double.difference(ofOrderKey: $0).bitPattern } == values.map(\.bitPattern))
    let exact: [Int128] = [
      -1 << 64, Int128(Int64.min) - Int128(Int64.max), -1, 0, 1, 1 << 62, Int128(Int64.max) * 2 + 1,
    ]
    let exactKeys = exact.map { Int64.orderKey(of: $0) }
    #expect(exactKeys == exactKeys.sorted() && Set(exactKeys).count == exactKeys.count)
    #expect(exactKeys.map { Int64.difference(ofOrderKey: $0) } == exact)
  }

  /// Every difference formed, exactly (in `Int128`): `FormedDifferences`, built optimized.
  static func formed(_ left: [Int64], _ right: [Int64]) -> [Int128] {
    FormedDifferences.formed(left, right)
  }

  /// Percentile `point` of the differences formed, in sorted order: numpy's rank, the order
  /// statistics interpolated exactly and rounded once. The two order statistics are selected
  /// (``orderStatistics(_:rank:)``), not found by sorting every difference: a million of them
  /// sorted took seconds in a debug build, for the same two values.
  static func formedPercentile(_ left: [Int64], _ right: [Int64], _ point: Double) -> Double {
    var differences = formed(left, right)
    let (lower, fraction) = Percentile.rank(count: differences.count, at: point)
    let (low, next) = orderStatistics(&differences, rank: lower)
    let high = fraction > 0 ? next ?? low : low
    return ExactRounding.interpolated(from: low, to: high, at: fraction)
  }

  /// The element at `rank` (from 0) of `values` in ascending order, and the one after it in
  /// that order (`nil` past the end), by Hoare's selection: `values` is reordered so that
  /// everything before `rank` is at most, and everything after it at least, its element.
  static func orderStatistics(_ values: inout [Int128], rank: Int) -> (Int128, Int128?) {
    FormedDifferences.orderStatistics(&values, rank: rank)
  }

  @Test("the reference's selection finds the order statistics a full sort finds, ties included")
  func selectionMatchesSorting() {
    var generator = SeededGenerator(seed: 0x5E1E_C7)
    for count in [1, 2, 3, 10, 257, 4_000] {
      for spread: UInt64 in [3, 1 << 40] {
        let values = (0..<count).map { _ in Int128(generator.next() % spread) - 1 }
        let sorted = values.sorted()
        for rank in Set([0, count / 3, count / 2, count - 1]) {
          var reordered = values
          let (at, next) = Self.orderStatistics(&reordered, rank: rank)
          #expect(at == sorted[rank], "count \(count), rank \(rank)")
          #expect(
            next == (rank + 1 < count ? sorted[rank + 1] : nil), "count \(count), rank \(rank)")
          #expect(reordered.sorted() == sorted, "selection only reorders")
        }
      }
    }
  }

  @Test(
    "every rank of the pairwise differences is the difference formed and sorted at that rank",
    arguments: 0..<4)
  func pairwiseRanksMatchFormedDifferences(kind: Int) {
    for (m, n) in [(1, 1), (1, 7), (9, 1), (13, 17), (40, 33)] {
      let seed: UInt64 = 0xD1FF &+ UInt64(kind * 10_000 + m * 100 + n)
      var generator = SeededGenerator(seed: seed)
      let left = Self.sample(kind, count: m, using: &generator).sorted()
      let right = Self.sample(kind, count: n, using: &generator).sorted()
      let differences = PairwiseDifferences(sorted: left, right)
      let formed = Self.formed(left, right).sorted()
      let ranked = (0..<formed.count).map { differences.element(at: Double($0)) }
      #expect(ranked == formed, "seed \(seed)")
      let threshold = formed[formed.count / 2]
      #expect(
        differences.countAtMost(threshold) == Double(formed.filter { $0 <= threshold }.count),
        "seed \(seed)")
    }
  }

  @Test("a zero difference of bucket values is +0, as subtracting equal values gives")
  func zeroDifferenceIsPositiveZero() throws {
    let left = try #require(GroupedSample<Double>([(-5, 1), (5, 1)]))
    let right = try #require(GroupedSample<Double>([(5, 1)]))
    let zero = PairwiseDifferences(grouped: left, right).percentile(100)
    #expect(zero == 0 && zero.sign == .plus)
  }

  @Test("percentile rank and fraction are numpy's h = (n − 1)·p/100, split at its floor")
  func percentileRankSplitsTheRank() {
    let p15 = Percentile.rank(count: 9, at: 15)
    #expect(p15.lower == 1 && abs(p15.fraction - 0.2) < 1e-12)
    #expect(Percentile.rank(count: 10, at: 50) == (4, 0.5))
    #expect(Percentile.rank(count: 9, at: 100) == (8, 0))
    #expect(Percentile.rank(count: 1, at: 50) == (0, 0))
    #expect(Percentile.rank(count: 9, at: -5) == (0, 0))
    #expect(Percentile.between(4, 6, at: 0.2) == 4.4)
  }

  @Test(
    "percentiles of the pairwise differences are Percentile.of over every difference formed",
    arguments: 0..<4)
  func pairwisePercentilesMatchFormedDifferences(kind: Int) throws {
    let seed: UInt64 = 0x9E4C &+ UInt64(kind)
    var generator = SeededGenerator(seed: seed)
    let left = Self.sample(kind, count: 61, using: &generator).sorted()
    let right = Self.sample(kind, count: 48, using: &generator).sorted()
    let differences = PairwiseDifferences(sorted: left, right)
    for point in [0.0, 12.5, 50, 95, 99.9, 100] {
      let expected = Self.formedPercentile(left, right, point)
      #expect(
        differences.percentile(point).bitPattern == expected.bitPattern,
        "p\(point), seed \(seed)")
    }
  }

  /// The Hodges-Lehmann estimate as it was computed before sorted inputs: evenly spaced
  /// subsamples of the sorted samples past a million pairs, then every difference formed (exactly) and
  /// its median selected.
  static func formedShift(_ first: [Int64], _ second: [Int64]) -> Double? {
    var left = first.sorted()
    var right = second.sorted()
    guard !left.isEmpty, !right.isEmpty else { return nil }
    if left.count * right.count > HodgesLehmann.maximumPairs {
      let side = 1_000
      func spaced(_ sorted: [Int64]) -> [Int64] {
        let count = min(side, sorted.count)
        return (0..<count).map { sorted[$0 * sorted.count / count] }
      }
      left = spaced(left)
      right = spaced(right)
    }
    return formedPercentile(left, right, 50)
  }

  @Test(
    "Hodges-Lehmann on sorted samples is the shift formed from every pair, subsampled or not",
    arguments: [(7, 5), (999, 1_001), (1_000, 1_000), (3_000, 2_500), (100_000, 40)])
  func hodgesLehmannOnSortedMatchesFormedPairs(m: Int, n: Int) throws {
    for kind in 0..<4 {
      let seed: UInt64 = 0x4E11 &+ UInt64(m * 7 + n * 3 + kind)
      var generator = SeededGenerator(seed: seed)
      let first = Self.sample(kind, count: m, using: &generator)
      let second = Self.sample(kind, count: n, using: &generator)
      let expected = try #require(Self.formedShift(first, second))
      let sorted = try #require(HodgesLehmann.shift(sorted: first.sorted(), second.sorted()))
      let unsorted = try #require(HodgesLehmann.shift(first, second))
      #expect(sorted.estimate.bitPattern == expected.bitPattern, "kind \(kind), seed \(seed)")
      #expect(unsorted.estimate.bitPattern == expected.bitPattern, "kind \(kind), seed \(seed)")
      #expect(sorted.subsampled == (m * n > HodgesLehmann.maximumPairs))
    }
    #expect(HodgesLehmann.shift(sorted: [], [1]) == nil)
  }

  @Test(
    "Mann-Whitney on sorted samples is Mann-Whitney on the same samples in any order",
    arguments: 0..<4)
  func mannWhitneyOnSortedMatchesShuffled(kind: Int) throws {
    let seed: UInt64 = 0x3A77 &+ UInt64(kind)
    var generator = SeededGenerator(seed: seed)
    let first = Self.sample(kind, count: 2_003, using: &generator)
    let second = Self.sample(kind, count: 1_501, using: &generator)
    let shuffled = try #require(
      MannWhitneyTest(first.shuffled(using: &generator), second.shuffled(using: &generator)))
    let sorted = try #require(MannWhitneyTest(sorted: first.sorted(), second.sorted()))
    #expect(sorted == shuffled, "seed \(seed)")
    #expect(MannWhitneyTest(sorted: [], [1]) == nil)
  }
}
