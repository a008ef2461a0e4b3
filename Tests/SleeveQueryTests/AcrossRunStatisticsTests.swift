import SleeveTestSupport
import Testing

@testable import SleeveQuery

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Reference values below were computed once with Python 3, scipy 1.17.1, statsmodels 0.15.0 and
// numpy 2.4.6; each test names the exact call. Published examples are cited where they exist.

/// Whether `actual` is within `tolerance` of `expected`, relative to the larger of 1 and |expected|.
private func close(_ actual: Double, _ expected: Double, _ tolerance: Double = 1e-12) -> Bool {
  abs(actual - expected) <= tolerance * max(1, abs(expected))
}

private func close(_ actual: [Double], _ expected: [Double], _ tolerance: Double = 1e-12) -> Bool {
  actual.count == expected.count && zip(actual, expected).allSatisfy { close($0, $1, tolerance) }
}

@Suite("Multiple comparisons across the rows of one diff")
struct MultipleComparisonsTests {
  /// Benjamini & Hochberg (1995), J. R. Statist. Soc. B 57:289-300, section 4: the 15 p-values of
  /// the thrombolysis trial's last family of hypotheses (also the worked example of scipy's
  /// `false_discovery_control` documentation, which prints the BH-adjusted values below).
  static let benjaminiHochberg1995 = [
    0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262,
    0.5719, 0.6528, 0.7590, 1.000,
  ]

  @Test("Benjamini-Hochberg reproduces the 1995 paper's example: four discoveries at 0.05")
  func benjaminiHochbergPublishedExample() {
    let q = MultipleComparisons.benjaminiHochberg(Self.benjaminiHochberg1995)
    // statsmodels.stats.multitest.multipletests(ps, method="fdr_bh")[1]; the same numbers as
    // scipy.stats.false_discovery_control(ps) in scipy's documentation.
    let expected = [
      0.0015, 0.003, 0.0095, 0.035625, 0.0603, 0.06385714285714286, 0.06385714285714286, 0.0645,
      0.07650000000000001, 0.48600000000000004, 0.5811818181818182, 0.7148749999999999,
      0.7532307692307693, 0.8132142857142857, 1.0,
    ]
    #expect(close(q, expected), "\(q)")
    // The paper: the step-up procedure rejects the four smallest (Bonferroni only three, as
    // scipy's documentation shows).
    #expect(q.filter { $0 <= 0.05 }.count == 4)
  }

  @Test("Holm rejects three of the 1995 paper's fifteen and matches statsmodels")
  func holmOnThePublishedExample() {
    let adjusted = MultipleComparisons.holm(Self.benjaminiHochberg1995)
    // multipletests(ps, method="holm")[1]
    let expected = [
      0.0015, 0.0056, 0.0247, 0.11399999999999999, 0.2211, 0.27799999999999997,
      0.27799999999999997, 0.27799999999999997, 0.32130000000000003, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    ]
    #expect(close(adjusted, expected), "\(adjusted)")
    #expect(adjusted.filter { $0 <= 0.05 }.count == 3)
  }

  @Test("Holm reproduces the textbook example: of 0.01, 0.04, 0.03, 0.005 only H1 and H4 fall")
  func holmPublishedExample() {
    // Wikipedia, "Holm-Bonferroni method", Example: four hypotheses at α = 0.05 with p-values
    // 0.01, 0.04, 0.03, 0.005; hypotheses one and four are rejected, two and three are not.
    let p = [0.01, 0.04, 0.03, 0.005]
    let adjusted = MultipleComparisons.holm(p)
    // multipletests([0.01, 0.04, 0.03, 0.005], method="holm")[1]
    #expect(close(adjusted, [0.03, 0.06, 0.06, 0.02]), "\(adjusted)")
    #expect(adjusted.map { $0 <= 0.05 } == [true, false, false, true])
    // multipletests([0.01, 0.04, 0.03, 0.005], method="fdr_bh")[1]
    #expect(close(MultipleComparisons.benjaminiHochberg(p), [0.02, 0.04, 0.04, 0.02]))
  }

  @Test("tied p-values get equal adjusted values, as statsmodels gives")
  func tiesGetEqualValues() {
    let p = [0.02, 0.02, 0.01, 0.5, 0.02]
    // multipletests([0.02, 0.02, 0.01, 0.5, 0.02], method="holm")[1] and method="fdr_bh"
    #expect(close(MultipleComparisons.holm(p), [0.08, 0.08, 0.05, 0.5, 0.08]))
    #expect(
      close(
        MultipleComparisons.benjaminiHochberg(p),
        [
          0.024999999999999998, 0.024999999999999998, 0.024999999999999998, 0.5,
          0.024999999999999998,
        ]
      ))
  }

  @Test("the adjusted values come back in the input's order, whatever that order")
  func inputOrderIsKept() {
    let seed: UInt64 = 0x401_3B4
    var generator = SeededGenerator(seed: seed)
    let order = Array(Self.benjaminiHochberg1995.indices).shuffled(using: &generator)
    let shuffled = order.map { Self.benjaminiHochberg1995[$0] }
    let holm = MultipleComparisons.holm(Self.benjaminiHochberg1995)
    let bh = MultipleComparisons.benjaminiHochberg(Self.benjaminiHochberg1995)
    #expect(MultipleComparisons.holm(shuffled) == order.map { holm[$0] }, "seed \(seed)")
    #expect(MultipleComparisons.benjaminiHochberg(shuffled) == order.map { bh[$0] }, "seed \(seed)")
  }

  @Test("no p-values give none; one p-value is its own adjustment")
  func adjustmentsEmptyAndSingle() {
    #expect(MultipleComparisons.holm([]).isEmpty)
    #expect(MultipleComparisons.benjaminiHochberg([]).isEmpty)
    // multipletests([0.3], method=...)[1] == [0.3] for both
    #expect(MultipleComparisons.holm([0.3]) == [0.3])
    #expect(MultipleComparisons.benjaminiHochberg([0.3]) == [0.3])
  }

  @Test("NaN counts as a comparison with p = 1; values outside 0...1 are clamped")
  func nonProbabilitiesAreMadeProbabilities() {
    // NaN is one more comparison (m = 2), so 0.01 becomes 0.02 under both methods.
    #expect(MultipleComparisons.holm([.nan, 0.01]) == [1, 0.02])
    #expect(MultipleComparisons.benjaminiHochberg([.nan, 0.01]) == [1, 0.02])
    #expect(MultipleComparisons.holm([.infinity, -.infinity, -3, 7]) == [1, 0, 0, 1])
    #expect(MultipleComparisons.benjaminiHochberg([.infinity, -.infinity]) == [1, 0])
  }

  @Test("adjusted values are at least the raw ones, at most 1, in the raw order, BH below Holm")
  func adjustmentProperties() {
    let seed: UInt64 = 0xB0_4F
    var generator = SeededGenerator(seed: seed)
    for size in [2, 3, 10, 257, 10_000] {
      // Many small p-values and many duplicates, as a diff of many rows has.
      let p = (0..<size).map { _ in
        (Double(Int.random(in: 0...400, using: &generator)) / 400).squareRoot()
          * Double.random(in: 0...1, using: &generator) * 0.2
      }
      let holm = MultipleComparisons.holm(p)
      let bh = MultipleComparisons.benjaminiHochberg(p)
      for i in p.indices {
        #expect(holm[i] >= p[i] && holm[i] <= 1, "seed \(seed) size \(size)")
        #expect(bh[i] >= p[i] && bh[i] <= holm[i], "seed \(seed) size \(size)")
      }
      let order = p.indices.sorted { p[$0] < p[$1] }
      for (a, b) in zip(order, order.dropFirst()) {
        #expect(holm[a] <= holm[b] && bh[a] <= bh[b], "seed \(seed) size \(size)")
      }
    }
  }

  @Test("200,000 p-values adjust without trouble (O(m log m))")
  func adjustmentsOfManyPValues() {
    let p = (0..<200_000).map { Double($0 % 1_000) / 1_000 }
    let holm = MultipleComparisons.holm(p)
    let bh = MultipleComparisons.benjaminiHochberg(p)
    #expect(holm.count == p.count && bh.count == p.count)
    // 200 zeros: Holm and BH both leave them 0; the largest p (0.999) is 1 under Holm and
    // 0.999 under BH (its own m/m factor).
    #expect(holm[0] == 0 && bh[0] == 0)
    #expect(holm[999] == 1 && close(bh[999], 0.999))
  }
}

@Suite("The smallest change a comparison could detect")
struct DetectableEffectTests {
  @Test(
    "the normal quantile matches scipy's norm.isf to full precision",
    arguments: [
      // scipy.stats.norm.isf(q) for each q
      (0.05, 1.6448536269514729), (0.2, 0.8416212335729142), (0.01, 2.3263478740408408),
      (0.1, 1.2815515655446004), (1e-6, 4.753424308822899), (1e-12, 7.034483825301131),
      (1e-300, 37.0470962993612), (0.3, 0.5244005127080409), (0.7, -0.5244005127080407),
      (0.95, -1.6448536269514722), (0.5, 0.0),
    ])
  func quantileMatchesScipy(tail: Double, z: Double) {
    #expect(close(NormalDistribution.inverseSurvival(tail), z, 1e-14))
    #expect(close(NormalDistribution.quantile(tail), -z, 1e-14))
  }

  @Test("the normal quantile is ±∞ at the ends and NaN outside 0...1")
  func quantileEdges() {
    #expect(NormalDistribution.inverseSurvival(0) == .infinity)
    #expect(NormalDistribution.inverseSurvival(1) == -.infinity)
    #expect(NormalDistribution.inverseSurvival(-0.1).isNaN)
    #expect(NormalDistribution.inverseSurvival(1.5).isNaN)
    #expect(NormalDistribution.inverseSurvival(.nan).isNaN)
  }

  /// Cohen (1988), Statistical Power Analysis for the Behavioral Sciences, Table 2.4.1 (as
  /// reproduced at medicalalgorithms.com, "Use of Cohen's effect size index for two samples with
  /// independent means"): one-tailed α = .05 and power .80 need n = 13, 20, 50 and 310 per group
  /// for effects of 1.0, 0.8, 0.5 and 0.2. So n per group detects the effect, and n − 1 does not.
  @Test(
    "equal groups of Cohen's tabulated n detect his effect sizes; one fewer does not",
    arguments: [(1.0, 13), (0.8, 20), (0.5, 50), (0.2, 310)])
  func cohensTableForTheArcsineEffect(effect: Double, n: Int) throws {
    // From a baseline rate of 0, the detectable rate p₂ has Cohen's h = 2·asin(√p₂).
    func h(_ n: Int) throws -> Double {
      let rate = try #require(
        DetectableEffect.errorRate(baselineRate: 0, baselineTrials: n, candidateTrials: n))
      return 2 * asin(rate.squareRoot())
    }
    #expect(try h(n) <= effect)
    #expect(try h(n - 1) > effect)
  }

  @Test(
    "the detectable error rate matches the power equation statsmodels solves",
    arguments: [
      // h = (norm.isf(alpha) + norm.isf(1 - power)) / sqrt(1 / (1/n1 + 1/n2));
      // p2 = sin(asin(sqrt(p1)) + h / 2) ** 2, or 1 past pi / 2. For each row,
      // NormalIndPower().power(effect_size=h, nobs1=n1, alpha=alpha, ratio=n2/n1,
      // alternative="larger") returns the power (0.8; 0.9 to 1e-16), and
      // NormalIndPower().solve_power(effect_size=None, nobs1=n1, ratio=n2/n1, alpha=alpha,
      // power=power, alternative="larger") gives h within 2e-5 relative (its root finder).
      (0.05, 1_000, 200, 0.05, 0.8, 0.10003816849109586),
      (0.0, 500, 500, 0.05, 0.8, 0.00616982639261381),
      (0.3, 50, 80, 0.05, 0.8, 0.5183652600525528),
      (0.95, 100, 100, 0.05, 0.8, 0.9975326295433574),
      (0.1, 300, 600, 0.01, 0.9, 0.18865408275581666),
    ])
  func errorRateMatchesStatsmodels(
    p1: Double, n1: Int, n2: Int, alpha: Double, power: Double, expected: Double
  ) throws {
    let rate = try #require(
      DetectableEffect.errorRate(
        baselineRate: p1, baselineTrials: n1, candidateTrials: n2, alpha: alpha, power: power))
    #expect(close(rate, expected, 1e-13), "\(rate)")
  }

  @Test("from a rate of 0 the detectable rate is above 0 and finite; from 1 it is 1")
  func ratesAtTheEnds() throws {
    let fromZero = try #require(
      DetectableEffect.errorRate(baselineRate: 0, baselineTrials: 20, candidateTrials: 20))
    #expect(fromZero > 0 && fromZero < 1)
    #expect(
      DetectableEffect.errorRate(baselineRate: 1, baselineTrials: 20, candidateTrials: 20) == 1)
    // sin² would turn back down past π/2 (to 0.897 here, below the baseline): capped at 1.
    #expect(
      DetectableEffect.errorRate(baselineRate: 0.95, baselineTrials: 10, candidateTrials: 10) == 1)
    // Rates outside 0...1 are clamped; NaN has no answer.
    #expect(
      DetectableEffect.errorRate(baselineRate: -2, baselineTrials: 20, candidateTrials: 20)
        == fromZero)
    #expect(
      DetectableEffect.errorRate(baselineRate: .nan, baselineTrials: 20, candidateTrials: 20)
        == nil)
  }

  @Test(
    "no trials, or a level or power that is not a probability, have no answer",
    arguments: [
      (0, 10, 0.05, 0.8), (10, 0, 0.05, 0.8), (-5, 10, 0.05, 0.8), (10, 10, 0, 0.8),
      (10, 10, 1, 0.8), (10, 10, .nan, 0.8), (10, 10, 0.05, 1), (10, 10, 0.05, .nan),
      (10, 10, 0.05, 0.05), (10, 10, 0.3, 0.2),
    ])
  func detectableEffectNoAnswer(n1: Int, n2: Int, alpha: Double, power: Double) {
    #expect(
      DetectableEffect.errorRate(
        baselineRate: 0.1, baselineTrials: n1, candidateTrials: n2, alpha: alpha, power: power)
        == nil)
    #expect(
      DetectableEffect.latencyShift(
        spread: 1, baselineCount: n1, candidateCount: n2, alpha: alpha, power: power) == nil)
  }

  @Test("counts near Int.max give a finite answer just above the baseline, without trapping")
  func detectableEffectHugeCounts() throws {
    let n = Int.max / 2
    let rate = try #require(
      DetectableEffect.errorRate(baselineRate: 0.01, baselineTrials: n, candidateTrials: n))
    // The closed form in Python (as above) with n1 = n2 = 4611686018427387903:
    // 0.010000000162924653. statsmodels' solve_power returns a non-root here (h = 2.68e-6
    // where the power equation gives 1.64e-9).
    #expect(abs(rate - 0.010000000162924653) < 1e-17)
    let most = try #require(
      DetectableEffect.errorRate(baselineRate: 0.5, baselineTrials: .max, candidateTrials: .max))
    #expect(most > 0.5 && most < 0.5 + 1e-8)
    let shift = try #require(
      DetectableEffect.latencyShift(spread: 1e9, baselineCount: .max, candidateCount: .max))
    #expect(shift > 0 && shift.isFinite)
  }

  @Test("more trials on either side detect a smaller change")
  func moreTrialsDetectLess() throws {
    var previous = 1.0
    for n in [1, 2, 5, 10, 100, 1_000, 100_000, 10_000_000] {
      let rate = try #require(
        DetectableEffect.errorRate(baselineRate: 0.02, baselineTrials: 50, candidateTrials: n))
      #expect(rate < previous && rate > 0.02, "n \(n)")
      previous = rate
    }
  }

  @Test(
    "the detectable latency shift matches statsmodels with each n scaled by 3/π",
    arguments: [
      // d = NormalIndPower().solve_power(effect_size=None, nobs1=n1*3/pi, ratio=n2/n1,
      // alpha=0.05, power=0.8, alternative="larger") (closed form as above; statsmodels agrees
      // within 4e-6 relative and its power() at d is 0.8); expected = d * spread.
      (10.0, 50, 50, 5.088952266824251), (10.0, 20, 5, 12.722380667060625),
      (2.5, 1_000, 30, 1.178681250850309),
    ])
  func latencyShiftMatchesStatsmodels(spread: Double, n1: Int, n2: Int, expected: Double) throws {
    let shift = try #require(
      DetectableEffect.latencyShift(spread: spread, baselineCount: n1, candidateCount: n2))
    #expect(close(shift, expected, 1e-13), "\(shift)")
  }

  @Test("Mann-Whitney needs π/3 times the t-test's sample: Cohen's n·π/3 detects his effect")
  func noetherEfficiency() throws {
    // Cohen's Table 2.4.1 (as above): d = 0.5 needs 50 per group for the z/t-test, so the
    // Mann-Whitney test, at ARE 3/π, detects 0.5 σ with 50·π/3 = 52.4 per group: at 53, yes.
    let shift = try #require(
      DetectableEffect.latencyShift(spread: 1, baselineCount: 53, candidateCount: 53))
    #expect(shift <= 0.5)
    // And with 50 per group (enough for the z-test) it does not.
    let fewer = try #require(
      DetectableEffect.latencyShift(spread: 1, baselineCount: 50, candidateCount: 50))
    #expect(fewer > 0.5)
  }

  @Test("a spread of 0 (all durations tied) makes any shift detectable; a negative one is refused")
  func spreadEdges() {
    #expect(DetectableEffect.latencyShift(spread: 0, baselineCount: 5, candidateCount: 5) == 0)
    #expect(DetectableEffect.latencyShift(spread: -1, baselineCount: 5, candidateCount: 5) == nil)
    #expect(DetectableEffect.latencyShift(spread: .nan, baselineCount: 5, candidateCount: 5) == nil)
  }

  @Test("the method's name states the level and power it was computed at")
  func methodStatesLevelAndPower() {
    #expect(
      DetectableEffect.method(alpha: 0.01, power: 0.9)
        == "minimum detectable effect at 90% power, one-sided, α = 0.01"
        + " (Cohen's h; Mann-Whitney via ARE 3/π)")
    #expect(DetectableEffect.method.contains("at 80% power, one-sided, α = 0.05 "))
  }

  @Test("the robust spread is the IQR over 1.349, by numpy's percentiles")
  func robustSpreadMatchesNumpy() throws {
    // v = np.array([1, 4, 6, 7, 8, 9, 11, 11, 11, 250]);
    // (np.percentile(v, 75) - np.percentile(v, 25)) / 1.349 == 3.5211267605633805
    let values: [Int64] = [250, 1, 4, 6, 7, 8, 9, 11, 11, 11]
    let spread = try #require(DetectableEffect.robustSpread(values))
    #expect(close(spread, 3.5211267605633805))
    #expect(DetectableEffect.robustSpread([]) == nil)
    #expect(DetectableEffect.robustSpread([42]) == 0)
    #expect(DetectableEffect.robustSpread([7, 7, 7, 7]) == 0)
    // The widest durations a file can hold: (max - min) / 2 / 1.349, in Double, no trap.
    let widest = try #require(DetectableEffect.robustSpread([.min, .max]))
    #expect(close(widest, (Double(Int64.max) - Double(Int64.min)) / 2 / 1.349))
  }
}

@Suite("Cochran-Mantel-Haenszel across tests")
struct StratifiedProportionTestTests {
  typealias Stratum = StratifiedProportionTest.Stratum

  static func strata(_ counts: [(Int, Int, Int, Int)]) -> [Stratum] {
    counts.map { Stratum(successes1: $0.0, trials1: $0.1, successes2: $0.2, trials2: $0.3) }
  }

  /// The statsmodels reference for each set of strata (a, n1, c, n2) below:
  ///
  ///     tables = np.array([[[a, n1 - a], [c, n2 - c]] for a, n1, c, n2 in strata],
  ///                       dtype=float).transpose(1, 2, 0)
  ///     r = StratifiedTable(tables).test_null_odds(correction=False)
  ///     z = np.sign(sum(a - n1 * (a + c) / (n1 + n2) for a, n1, c, n2 in strata))
  ///         * np.sqrt(r.statistic)
  ///     p = scipy.stats.norm.sf(z)
  @Test("reproduces SAS's Migraine example: CMH 8.3052, p 0.0040 two-sided")
  func cmhPublishedMigraineExample() throws {
    // SAS/STAT PROC FREQ documentation, Example "Cochran-Mantel-Haenszel Statistics": Active
    // vs Placebo, "Better" counted, stratified by gender (female 16/27 vs 5/25, male 12/28 vs
    // 7/26): Nonzero Correlation, DF 1, Value 8.3052, Prob 0.0040.
    let test = try #require(
      StratifiedProportionTest(Self.strata([(16, 27, 5, 25), (12, 28, 7, 26)])))
    #expect(abs(test.z * test.z - 8.3052) < 5e-5)
    #expect(abs(2 * test.pValue - 0.0040) < 5e-5)
    // statsmodels: statistic 8.305169335459192, z 2.8818690697981393, p 0.0019766198192084695
    #expect(close(test.z, 2.8818690697981393))
    #expect(close(test.pValue, 0.0019766198192084695))
    #expect(test.strataUsed == 2 && !test.noVariance)
  }

  @Test(
    "matches statsmodels' test_null_odds(correction=False), with its sign",
    arguments: [
      (
        [(3, 40, 1, 38), (0, 12, 2, 15), (9, 100, 4, 90), (1, 7, 1, 9)], 1.0551273312841507,
        0.14568354677534573
      ),
      ([(2, 50, 6, 60), (1, 30, 3, 25)], -1.6863760711637439, 0.9541383063192922),
    ])
  func cmhMatchesStatsmodels(counts: [(Int, Int, Int, Int)], z: Double, p: Double) throws {
    let test = try #require(StratifiedProportionTest(Self.strata(counts)))
    #expect(close(test.z, z) && close(test.pValue, p), "z \(test.z) p \(test.pValue)")
    #expect(test.strataUsed == counts.count)
  }

  @Test("strata lacking a group are left out and not counted")
  func cmhStrataLackingAGroup() throws {
    let counts = [(3, 40, 1, 38), (0, 12, 2, 15), (9, 100, 4, 90), (1, 7, 1, 9)]
    let test = try #require(
      StratifiedProportionTest(Self.strata(counts + [(5, 5, 0, 0), (0, 0, 3, 10), (0, 0, 0, 0)])))
    #expect(close(test.z, 1.0551273312841507))
    #expect(test.strataUsed == 4)
    #expect(StratifiedProportionTest(Self.strata([(5, 5, 0, 0), (0, 0, 3, 10)])) == nil)
    #expect(StratifiedProportionTest([]) == nil)
  }

  @Test("a share that differs between tests, not between groups, is no evidence (Simpson)")
  func cmhComparesLikeWithLike() throws {
    // Test A fails 1% for both groups, test B 10% for both; the first group ran B more often.
    let counts = [(1, 100, 10, 1_000), (100, 1_000, 10, 100)]
    let pooled = try #require(
      TwoProportionTest(successes1: 101, trials1: 1_100, successes2: 20, trials2: 1_100))
    #expect(pooled.pValue < 1e-10)
    let test = try #require(StratifiedProportionTest(Self.strata(counts)))
    #expect(abs(test.z) < 1e-12)
    #expect(abs(test.pValue - 0.5) < 1e-12)
  }

  @Test("one stratum is the pooled two-proportion z scaled by √((n − 1)/n)")
  func cmhOneStratumIsTheTwoProportionTest() throws {
    let test = try #require(StratifiedProportionTest(Self.strata([(12, 200, 4, 200)])))
    let pooled = try #require(
      TwoProportionTest(successes1: 12, trials1: 200, successes2: 4, trials2: 200))
    #expect(close(test.z, pooled.z * (399.0 / 400).squareRoot()))
  }

  @Test("no successes or all successes everywhere is no variance: p = 1")
  func cmhNoVariance() throws {
    let none = try #require(StratifiedProportionTest(Self.strata([(0, 10, 0, 20), (0, 3, 0, 4)])))
    #expect(none.noVariance && none.pValue == 1 && none.z == 0 && none.strataUsed == 2)
    let all = try #require(StratifiedProportionTest(Self.strata([(10, 10, 20, 20)])))
    #expect(all.noVariance && all.pValue == 1)
  }

  @Test("counts near Int.max give finite answers without trapping; impossible counts are clamped")
  func cmhHugeAndImpossibleCounts() throws {
    let n = Int.max / 2
    let equal = try #require(StratifiedProportionTest(Self.strata([(n / 100, n, n / 100, n)])))
    #expect(abs(equal.z) < 1e-6 && equal.z.isFinite)
    let worse = try #require(
      StratifiedProportionTest(Self.strata([(n / 50, n, n / 100, n), (1, .max, 0, .max)])))
    #expect(worse.z > 1e6 && worse.z.isFinite && worse.pValue == 0)
    // More successes than trials count as all trials; negative ones as none.
    let clamped = try #require(StratifiedProportionTest(Self.strata([(99, 10, -4, 10)])))
    let exact = try #require(StratifiedProportionTest(Self.strata([(10, 10, 0, 10)])))
    #expect(clamped == exact)
  }
}

@Suite("van Elteren across tests")
struct StratifiedRankTestTests {
  static let strata: [(first: [Int64], second: [Int64])] = [
    ([12, 15, 11, 19, 22, 17, 14, 25, 18, 16], [10, 11, 9, 14, 12, 13, 8, 15, 11, 10, 12]),
    ([1, 2, 2, 3, 3, 3, 4, 5], [1, 1, 2, 2, 3, 4]),
    ([100, 90], [95, 80, 85, 120, 70]),
    ([], [1, 2]),
  ]

  /// No published van Elteren example with its data and result was found to cite (SAS Usage
  /// Note 25022 gives Dmitrienko et al.'s data without the whole output), so the reference is
  /// the formula computed once, directly, with numpy 2.4.6 and scipy 1.17.1:
  ///
  ///     def van_elteren(strata):
  ///         num = var = 0.0
  ///         for x, y in strata:
  ///             x = np.asarray(x, float); y = np.asarray(y, float)
  ///             n1, n2 = len(x), len(y); N = n1 + n2
  ///             if n1 == 0 or n2 == 0: continue
  ///             both = np.concatenate([x, y])
  ///             W = scipy.stats.rankdata(both)[:n1].sum()
  ///             t = np.unique(both, return_counts=True)[1].astype(float)
  ///             v = n1 * n2 / 12 * ((N + 1) - (t**3 - t).sum() / (N * (N - 1)))
  ///             num += (W - n1 * (N + 1) / 2) / (N + 1)
  ///             var += v / (N + 1)**2
  ///         z = num / np.sqrt(var)
  ///         return z, scipy.stats.norm.sf(z)
  @Test("matches the van Elteren formula computed directly with numpy, both directions")
  func vanElterenMatchesNumpy() throws {
    let test = try #require(StratifiedRankTest(Self.strata))
    #expect(close(test.z, 3.1203622306621424) && close(test.pValue, 0.0009031438474630338))
    #expect(test.strataUsed == 3 && !test.noVariance)
    let reversed = try #require(StratifiedRankTest(Self.strata.map { ($0.second, $0.first) }))
    #expect(close(reversed.z, -3.1203622306621424) && close(reversed.pValue, 0.999096856152537))
  }

  @Test("one stratum is scipy's Mann-Whitney z without continuity correction")
  func vanElterenOneStratumIsMannWhitney() throws {
    // scipy.stats.mannwhitneyu([1, 2, 2, 3, 3, 3, 4, 5], [1, 1, 2, 2, 3, 4],
    //   alternative="greater", use_continuity=False, method="asymptotic").pvalue
    //   == 0.1440283044555825 (z = norm.isf(p) = 1.0623945456103567)
    let test = try #require(StratifiedRankTest([Self.strata[1]]))
    #expect(close(test.pValue, 0.1440283044555825))
    #expect(close(test.z, 1.0623945456103567))
  }

  @Test("durations that differ between tests, not between groups, are no evidence (Simpson)")
  func vanElterenComparesLikeWithLike() throws {
    // A fast test and a slow one, each with the same durations in both groups; the first group
    // ran the slow test more often. scipy.stats.mannwhitneyu(first, second,
    // alternative="greater", method="asymptotic").pvalue on the pooled values: 0.000562940…
    let fast: [Int64] = [10, 11, 12, 13]
    let slow: [Int64] = [100, 105, 110, 115]
    let pooled = try #require(
      MannWhitneyTest(
        fast + Array(repeating: slow, count: 4).flatMap { $0 },
        Array(repeating: fast, count: 4).flatMap { $0 } + slow))
    #expect(abs(pooled.pValue - 0.0005629405399973624) < 1e-12)
    let test = try #require(
      StratifiedRankTest([
        (fast, Array(repeating: fast, count: 4).flatMap { $0 }),
        (Array(repeating: slow, count: 4).flatMap { $0 }, slow),
      ]))
    #expect(test.z == 0 && test.pValue == 0.5)
  }

  @Test("all durations tied in every stratum is no variance: p = 1")
  func vanElterenAllTied() throws {
    let test = try #require(StratifiedRankTest([([5, 5, 5], [5, 5]), ([9], [9, 9, 9, 9])]))
    #expect(test.noVariance && test.pValue == 1 && test.z == 0 && test.strataUsed == 2)
    // One stratum with variety is enough to have some.
    let some = try #require(StratifiedRankTest([([5, 5, 5], [5, 5]), ([9, 10], [9, 8])]))
    #expect(!some.noVariance && some.strataUsed == 2)
  }

  @Test("a million tied durations are no variance, where the formula's rounding leaves 1e-10")
  func vanElterenManyTiedDurations() throws {
    // In Double, (N + 1) - (N^3 - N) / (N(N - 1)) is 1.1641532182693481e-10, not 0, at
    // N = 1,000,002 (Python floats, the same IEEE arithmetic): all tied must still be no
    // variance, for this test and for MannWhitneyTest, which shares the ranking.
    let half = [Int64](repeating: 7, count: 500_001)
    let test = try #require(StratifiedRankTest([(half, half)]))
    #expect(test.noVariance && test.pValue == 1)
    let pairwise = try #require(MannWhitneyTest(half, half))
    #expect(pairwise.noVariance && pairwise.pValue == 1)
  }

  @Test("no stratum with both groups has no answer")
  func vanElterenNoStratum() {
    #expect(StratifiedRankTest([]) == nil)
    #expect(StratifiedRankTest([([], [1, 2]), ([3], [])]) == nil)
  }

  @Test("the widest durations rank without overflow")
  func vanElterenExtremeDurations() throws {
    let test = try #require(
      StratifiedRankTest([([.max, .max - 1, 0], [.min, .min + 1, 0]), ([.max], [.min])]))
    #expect(test.z > 0 && test.z.isFinite && test.strataUsed == 2)
  }

  @Test("a million durations across 100 tests rank in O(n log n), and a shift is found")
  func vanElterenManyDurations() throws {
    let seed: UInt64 = 0x7E_57
    var generator = SeededGenerator(seed: seed)
    var strata: [(first: [Int64], second: [Int64])] = []
    for test in 0..<100 {
      // Each test its own scale; coarse values, so ties are common; the first group 2% slower.
      let scale = Int64(1_000 * (test + 1))
      let second = (0..<5_000).map { _ in Int64.random(in: 0...100, using: &generator) * scale }
      let first = (0..<5_000).map { _ in
        Int64.random(in: 0...100, using: &generator) * scale + scale * 2
      }
      strata.append((first, second))
    }
    let shifted = try #require(StratifiedRankTest(strata))
    #expect(shifted.pValue < 1e-6 && shifted.strataUsed == 100, "seed \(seed)")
    let null = try #require(StratifiedRankTest(strata.map { ($0.second, $0.second) }))
    #expect(null.z == 0, "seed \(seed)")
  }
}
