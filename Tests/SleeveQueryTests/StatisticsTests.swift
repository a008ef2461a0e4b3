import SleeveQuery
import SleeveTestSupport
import Testing

@Suite("Statistics")
struct StatisticsTests {
  static let fixture: [Int64] = [1, 4, 6, 7, 8, 9, 11, 11, 11]

  @Test(
    "percentiles interpolate linearly between closest ranks (numpy's default)",
    arguments: [
      (15.0, 4.4), (20.0, 5.2), (0.0, 1.0), (50.0, 8.0), (100.0, 11.0), (90.0, 11.0),
      (25.0, 6.0), (60.0, 8.8),
    ])
  func percentilesMatchHandComputedValues(point: Double, expected: Double) throws {
    // Selection must not depend on the input order: a seeded shuffle, replayable.
    let seed: UInt64 = 0x5E1EC7 &+ UInt64(point * 10)
    var generator = SeededGenerator(seed: seed)
    var values = Self.fixture.shuffled(using: &generator)
    let result = try #require(Percentile.of(&values, at: [point])?.first)
    #expect(abs(result - expected) < 1e-9, "seed \(seed)")
  }

  @Test("no values have no percentile; one value is every percentile")
  func emptyAndSingleSets() {
    var empty: [Int64] = []
    #expect(Percentile.of(&empty, at: [50]) == nil)
    var one: [Int64] = [42]
    #expect(Percentile.of(&one, at: [0, 50, 99.9]) == [42, 42, 42])
  }

  @Test("selection agrees with sorting on random sets with many duplicates")
  func selectionAgreesWithSorting() {
    let seed: UInt64 = 0x5E1EC7
    var generator = SeededGenerator(seed: seed)
    for size in [2, 3, 17, 100, 1_000, 10_001] {
      let values = (0..<size).map { _ in Int64.random(in: 0...50, using: &generator) }
      let sorted = values.sorted()
      for point in [0.0, 1, 33.3, 50, 90, 99, 99.9, 100] {
        var scratch = values
        let rank = Double(size - 1) * point / 100
        let lower = Int(rank.rounded(.down))
        let upper = min(lower + 1, size - 1)
        let expected =
          Double(sorted[lower]) + (rank - Double(lower)) * Double(sorted[upper] - sorted[lower])
        let result = Percentile.of(&scratch, at: [point])!.first!
        #expect(abs(result - expected) < 1e-6, "seed \(seed), size \(size) p\(point)")
      }
    }
  }

  @Test(
    "a percentile is insufficient when n < 1/(1-p)",
    arguments: [
      (99, 99.0, true), (100, 99.0, false), (19, 95.0, true), (20, 95.0, false),
      (1, 50.0, true), (2, 50.0, false), (999, 99.9, true), (1_000, 99.9, false), (0, 100.0, true),
      (1, 100.0, true), (1_000_000, 100.0, true),
    ])
  func insufficientRule(count: Int, point: Double, insufficient: Bool) {
    #expect(Percentile.isInsufficient(count: count, point: point) == insufficient)
  }

  @Test(
    "Wilson 95% bounds match published values",
    arguments: [
      (0, 10, 0.0, 0.2775), (5, 10, 0.2366, 0.7634), (10, 10, 0.7225, 1.0),
      (1, 100, 0.0018, 0.0545), (50, 1_000, 0.0382, 0.0653),
    ])
  func wilsonBounds(failures: Int, trials: Int, lower: Double, upper: Double) throws {
    let interval = try #require(WilsonInterval(successes: failures, trials: trials))
    #expect(abs(interval.lower - lower) < 1e-4)
    #expect(abs(interval.upper - upper) < 1e-4)
  }

  @Test("no trials have no interval")
  func noTrialsNoInterval() {
    #expect(WilsonInterval(successes: 0, trials: 0) == nil)
  }
}

@Suite("Statistical tests against published values")
struct HypothesisTestTests {
  static let x: [Int64] = [12, 15, 11, 19, 22, 17, 14, 25, 18, 16]
  static let y: [Int64] = [10, 11, 9, 14, 12, 13, 8, 15, 11, 10, 12]

  @Test("Mann-Whitney U matches scipy's mannwhitneyu(alternative='greater', asymptotic)")
  func mannWhitneyMatchesScipy() throws {
    let test = try #require(MannWhitneyTest(Self.x, Self.y))
    #expect(test.u == 98)
    #expect(abs(test.pValue - 0.0013344419187855457) < 1e-12)
  }

  @Test("Mann-Whitney U with ties matches scipy")
  func mannWhitneyWithTies() throws {
    let test = try #require(MannWhitneyTest([1, 2, 2, 3, 3, 3, 4, 5], [1, 1, 2, 2, 3, 4]))
    #expect(test.u == 32)
    #expect(abs(test.pValue - 0.15962631485751094) < 1e-12)
  }

  @Test("Hodges-Lehmann shift is the median pairwise difference")
  func hodgesLehmann() throws {
    let shift = try #require(HodgesLehmann.shift(Self.x, Self.y))
    #expect(shift.estimate == 5)
    #expect(!shift.subsampled)
    #expect(HodgesLehmann.shift([], [1]) == nil)
  }

  @Test(
    "the two-proportion z-test matches statsmodels' proportions_ztest(alternative='larger')",
    arguments: [
      (12, 200, 4, 200, 2.0412414523193148, 0.02061341666858185),
      (30, 1_000, 20, 1_000, 1.4322297480788655, 0.07603904039648762),
      (5, 100, 5, 100, 0.0, 0.5),
    ])
  func twoProportionMatchesStatsmodels(
    a: Int, n: Int, b: Int, m: Int, z: Double, p: Double
  ) throws {
    let test = try #require(TwoProportionTest(successes1: a, trials1: n, successes2: b, trials2: m))
    #expect(abs(test.z - z) < 1e-12)
    #expect(abs(test.pValue - p) < 1e-12)
  }
}
