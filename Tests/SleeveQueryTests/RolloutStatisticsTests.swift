import SleeveCore
import SleeveQuery
import Testing

// Reference values: the sample ratio figures were computed once with Python 3, scipy 1.17.1 and
// numpy 2.4.6 as `scipy.stats.chisquare([on, off], [share * n, (1 - share) * n])`; the
// sequential figures come from GrowthBook's gbstats 0.8.0, `SequentialTwoSidedTTest(stat_a,
// stat_b, SequentialConfig(difference_type=..., sequential_tuning_parameter=..., alpha=...))`
// with `stat_a` the control. Each test says which figures are published and which were computed.

/// The share `fraction` (0…1, at most four decimals) as a rollout's basis points.
private func served(_ fraction: Double) throws -> RolloutPercentage {
  try #require(RolloutPercentage(percent: fraction * 100))
}

/// Whether `actual` is within `tolerance` of `expected`, relative to the larger of 1e-300 and
/// |expected| (so tiny p-values are compared on their own scale).
private func close(_ actual: Double, _ expected: Double, _ tolerance: Double = 1e-12) -> Bool {
  abs(actual - expected) <= tolerance * max(1e-300, abs(expected))
}

@Suite("Sample ratio mismatch")
struct SampleRatioTestTests {
  @Test(
    "the chi-square statistic and p-value match scipy's chisquare, down to p near 1e-300",
    arguments: [
      // (on, off, share, statistic, p) from scipy 1.17.1 chisquare(f_obs, f_exp)
      (5_000, 5_000, 0.5, 0.0, 1.0),
      (2_400, 7_600, 0.25, 5.333333333333333, 0.020921335337794035),
      (520, 480, 0.5, 1.6, 0.20590321073206466),
      (1_100, 3_900, 0.25, 24.0, 9.63357008643095e-07),
      (5_750, 4_250, 0.5, 225.0, 7.341932398625549e-51),
      (1_000, 8_000, 0.05, 707.6023391812865, 6.645661030797016e-156),
      (6_850, 3_150, 0.5, 1369.0, 1.1451142445049073e-299),
      (0, 1_000, 0.25, 333.3333333333333, 1.80631623309412e-74),
      (5_165, 4_835, 0.5, 10.89, 0.0009668482847675553),
      (5_164, 4_836, 0.5, 10.7584, 0.0010380708664139455),
    ])
  func matchesScipy(on: Int, off: Int, share: Double, statistic: Double, p: Double) throws {
    let srm = try #require(SampleRatioTest(unitsOn: on, unitsOff: off, shareOn: try served(share)))
    let x = try #require(srm.statistic)
    #expect(abs(x - statistic) <= 1e-12 * max(1, statistic), "\(x)")
    // erfc keeps its relative precision deep into the tail; scipy's chi2.sf agrees to ~1e-13.
    #expect(close(srm.pValue, p, 1e-11), "\(srm.pValue)")
    #expect(srm.isMismatch == (p < 0.001))
    #expect(srm.isCheckable)
  }

  @Test("a split far beyond double precision has p = 0 and is a mismatch, without a trap")
  func underflowingPValueIsZero() throws {
    // scipy 1.17.1: chisquare([0, 10000], [2500, 7500]) -> (3333.3333333333335, 0.0)
    let srm = try #require(SampleRatioTest(unitsOn: 0, unitsOff: 10_000, shareOn: try served(0.25)))
    #expect(srm.statistic.map { abs($0 - 3333.3333333333335) < 1e-9 } == true)
    #expect(srm.pValue == 0)
    #expect(srm.isMismatch)
    // Int.max units on and off at 0.01%: the largest statistic there is stays finite, p is 0.
    let huge = try #require(
      SampleRatioTest(unitsOn: .max, unitsOff: .max, shareOn: try served(0.0001)))
    #expect(huge.isMismatch && huge.pValue == 0 && huge.statistic?.isFinite == true)
  }

  @Test("mismatch is p below 0.001, with the threshold and minimum published as constants")
  func thresholdIsStrict() throws {
    #expect(SampleRatioTest.threshold == 0.001)
    #expect(SampleRatioTest.minimumUnitsPerArm == 8)
    // p = 0.000967 (scipy above) is flagged, p = 0.001038 is not.
    #expect(
      try #require(SampleRatioTest(unitsOn: 5_165, unitsOff: 4_835, shareOn: try served(0.5)))
        .isMismatch)
    let near = try #require(
      SampleRatioTest(unitsOn: 5_164, unitsOff: 4_836, shareOn: try served(0.5)))
    #expect(near.outcome == .consistent)
  }

  @Test("checkability follows the expected count per arm, so serving nobody on cannot escape")
  func checkabilityUsesExpectedCounts() throws {
    // 0 of 33 on at 25%: expected on is 8.25, so the check runs although 0 units were observed
    // on (an observed-count rule would skip it). scipy: chisquare([0, 33], [8.25, 24.75]) ->
    // (11.0, 0.0009111188771537126): a mismatch.
    let nobodyOn = try #require(
      SampleRatioTest(unitsOn: 0, unitsOff: 33, shareOn: try served(0.25)))
    #expect(nobodyOn.isCheckable && nobodyOn.isMismatch)
    #expect(nobodyOn.expectedOn == 8.25 && nobodyOn.expectedOff == 24.75)
    // 8 expected on (32 units at 25%) is enough; 7.75 (31 units) is not, whatever was observed.
    let enough = try #require(SampleRatioTest(unitsOn: 8, unitsOff: 24, shareOn: try served(0.25)))
    #expect(enough.outcome == .consistent)
    let tooFew = try #require(SampleRatioTest(unitsOn: 0, unitsOff: 31, shareOn: try served(0.25)))
    #expect(tooFew.outcome == .notCheckable(.tooFewExpectedUnits(smallerExpected: 7.75)))
    #expect(!tooFew.isMismatch)
    // Many units observed on does not make the check runnable either: 1 expected on at 1%.
    let manyObserved = try #require(
      SampleRatioTest(unitsOn: 90, unitsOff: 10, shareOn: try served(0.01)))
    #expect(!manyObserved.isCheckable)
    // The reason rounds the expected count to two decimals: 0.1 × 3 units is 0.30000000000000004.
    let three = try #require(SampleRatioTest(unitsOn: 0, unitsOff: 3, shareOn: try served(0.1)))
    #expect(
      three.outcome.description
        == "not checkable: too few units: 0.3 expected in the smaller arm, 8 needed")
    #expect(
      manyObserved.outcome.description.hasPrefix("not checkable: too few units: 1.0 expected"))
  }

  @Test("an arm expecting exactly 8 units is checked: 40 units at 80% expect 8 off, exactly")
  func expectedCountsAreExact() throws {
    // In doubles 40 × (1 − 0.8) is 7.999999999999998, which held this split as "too few units".
    let split = try #require(SampleRatioTest(unitsOn: 32, unitsOff: 8, shareOn: try served(0.8)))
    #expect(split.expectedOn == 32 && split.expectedOff == 8)
    #expect(split.outcome == .consistent && split.statistic == 0 && split.pValue == 1)
    // One unit fewer expects 7.8 off: too few, at every share whose smaller arm is the same.
    for (on, off, share) in [(31, 8, 0.8), (8, 31, 0.2)] {
      let small = try #require(
        SampleRatioTest(unitsOn: on, unitsOff: off, shareOn: try served(share)))
      #expect(small.outcome == .notCheckable(.tooFewExpectedUnits(smallerExpected: 7.8)))
    }
    // 0.07 × 100 units is 7.000000000000001 in doubles; in basis points it is 7.
    let seven = try #require(SampleRatioTest(unitsOn: 7, unitsOff: 93, shareOn: try served(0.07)))
    #expect(seven.expectedOn == 7 && seven.expectedOff == 93)
  }

  @Test("no units cannot be checked, and the reason says so")
  func noUnits() throws {
    let srm = try #require(SampleRatioTest(unitsOn: 0, unitsOff: 0, shareOn: try served(0.25)))
    #expect(srm.outcome == .notCheckable(.noUnits))
    #expect(srm.pValue == 1 && srm.statistic == nil)
    #expect(srm.outcome.description == "not checkable: no units observed")
  }

  @Test(
    "at a share of 0 or 1 any unit in the empty arm is a mismatch, whatever the sample size",
    arguments: [
      (0.0, 1, 0, true), (0.0, 1, 1_000, true), (0.0, 0, 3, false), (1.0, 0, 1, true),
      (1.0, 5, 0, false), (1.0, 1_000, 2, true),
    ])
  func emptyArmLeaks(share: Double, on: Int, off: Int, mismatch: Bool) throws {
    let srm = try #require(SampleRatioTest(unitsOn: on, unitsOff: off, shareOn: try served(share)))
    #expect(srm.isCheckable)
    #expect(srm.isMismatch == mismatch)
    #expect(srm.pValue == (mismatch ? 0 : 1))
    #expect(srm.statistic == nil)
  }

  @Test(
    "input no split can produce is refused, not trapped on",
    arguments: [(-1, 5), (5, -1), (Int.min, Int.max)])
  func impossibleInputIsRefused(on: Int, off: Int) throws {
    #expect(SampleRatioTest(unitsOn: on, unitsOff: off, shareOn: try served(0.5)) == nil)
  }
}

@Suite("Moments of one arm")
struct MomentsTests {
  @Test("sample moments use n − 1 and proportions p(1 − p), as gbstats' statistics")
  func varianceConventions() throws {
    let sample = try #require(Moments(values: [1, 2, 3, 4.0]))
    #expect(sample.count == 4 && sample.mean == 2.5)
    #expect(abs(sample.variance - 5.0 / 3.0) < 1e-15)
    let proportion = try #require(Moments(successes: 50, trials: 1_000))
    #expect(proportion.mean == 0.05 && abs(proportion.variance - 0.0475) < 1e-15)
    #expect(try #require(Moments(values: [7.0])).variance == 0)
  }

  @Test(
    "impossible moments are refused",
    arguments: [
      (-1, 0.0, 0.0), (0, 1.0, 0.0), (3, Double.nan, 1.0), (3, 1.0, Double.infinity),
      (3, 1.0, -1.0), (3, 1e200, 1e300),
    ])
  func impossibleMoments(count: Int, sum: Double, sumOfSquares: Double) {
    #expect(Moments(count: count, sum: sum, sumOfSquares: sumOfSquares) == nil)
  }

  @Test("impossible proportions are refused", arguments: [(-1, 5), (6, 5), (0, -1)])
  func impossibleProportions(successes: Int, trials: Int) {
    #expect(Moments(successes: successes, trials: trials) == nil)
  }
}

@Suite("Sequential comparison (asymptotic confidence sequence)")
struct SequentialComparisonTests {
  struct Case: Sendable, CustomTestStringConvertible {
    let name: String
    let control: Moments
    let treatment: Moments
    let difference: SequentialComparison.Difference
    let alpha: Double
    let tuning: Double
    let estimate: Double
    let lower: Double
    let upper: Double
    let p: Double
    var testDescription: String { name }
  }

  /// GrowthBook's published cases, `gbstats/test/frequentist/test_tests.py`,
  /// `TestSequentialTTest` (the expected numbers there; reproduced with gbstats 0.8.0).
  static let published: [Case] = [
    Case(
      name: "relative lift of means (test_tests.py)",
      control: Moments(count: 3_000, sum: 1396.87, sumOfSquares: 52377.9767)!,
      treatment: Moments(count: 3_461, sum: 2422.7, sumOfSquares: 134698.29)!,
      difference: .relative, alpha: 0.05, tuning: 1_000,
      estimate: 0.5033610858562358, lower: -0.5584405051077315, upper: 1.5651626768202032,
      p: 1.0),
    Case(
      name: "relative lift of proportions (test_tests.py)",
      control: Moments(successes: 1_396, trials: 3_000)!,
      treatment: Moments(successes: 2_422, trials: 3_461)!,
      difference: .relative, alpha: 0.05, tuning: 5_000,
      estimate: 0.5038633516821496, lower: 0.4009784966859415, upper: 0.6067482066783577,
      p: 5.174716682839852e-44),
    Case(
      name: "absolute difference of proportions (test_tests.py)",
      control: Moments(successes: 1_396, trials: 3_000)!,
      treatment: Moments(successes: 2_422, trials: 3_461)!,
      difference: .absolute, alpha: 0.05, tuning: 5_000,
      estimate: 0.23446441298276027, lower: 0.19804879693925878, upper: 0.2708800290262618,
      p: 6.300128463364954e-76),
  ]

  /// Computed once with gbstats 0.8.0 (not published): other levels, tunings and small samples.
  static let computed: [Case] = [
    Case(
      name: "absolute difference of means, N* 5000",
      control: Moments(count: 3_000, sum: 1396.87, sumOfSquares: 52377.9767)!,
      treatment: Moments(count: 3_461, sum: 2422.7, sumOfSquares: 134698.29)!,
      difference: .absolute, alpha: 0.05, tuning: 5_000,
      estimate: 0.23437666666666668, lower: -0.16011652842982782, upper: 0.6288698617631612,
      p: 0.7601250075467714),
    Case(
      name: "error rates 5% against 6.5%",
      control: Moments(successes: 50, trials: 1_000)!,
      treatment: Moments(successes: 65, trials: 1_000)!,
      difference: .absolute, alpha: 0.05, tuning: 5_000,
      estimate: 0.015, lower: -0.017504568859097784, upper: 0.04750456885909778,
      p: 0.927160216335375),
    Case(
      name: "error rates at alpha 0.01 (p capped at 1)",
      control: Moments(successes: 50, trials: 1_000)!,
      treatment: Moments(successes: 65, trials: 1_000)!,
      difference: .absolute, alpha: 0.01, tuning: 5_000,
      estimate: 0.015, lower: -0.022956427552529794, upper: 0.05295642755252979, p: 1.0),
    Case(
      name: "small samples, N* 200",
      control: Moments(count: 20, sum: 82, sumOfSquares: 341)!,
      treatment: Moments(count: 25, sum: 110, sumOfSquares: 493)!,
      difference: .absolute, alpha: 0.05, tuning: 200,
      estimate: 0.3000000000000007, lower: -0.24993525748807977, upper: 0.8499352574880812,
      p: 0.5876043271368946),
    Case(
      name: "small samples, relative, alpha 0.1",
      control: Moments(count: 20, sum: 82, sumOfSquares: 341)!,
      treatment: Moments(count: 25, sum: 110, sumOfSquares: 493)!,
      difference: .relative, alpha: 0.1, tuning: 200,
      estimate: 0.07317073170731725, lower: -0.05500308420444869, upper: 0.2013445476190832,
      p: 0.6363757910935994),
  ]

  @Test(
    "reproduces GrowthBook's published sequential test cases",
    arguments: published)
  func publishedCases(_ c: Case) throws {
    try check(c)
  }

  @Test("matches gbstats 0.8.0 at other levels, tunings and sample sizes", arguments: computed)
  func computedCases(_ c: Case) throws {
    try check(c)
  }

  private func check(_ c: Case) throws {
    let result = try #require(
      SequentialComparison(
        treatment: c.treatment, control: c.control, difference: c.difference, alpha: c.alpha,
        tuning: c.tuning))
    #expect(close(result.estimate, c.estimate), "estimate \(result.estimate)")
    #expect(close(result.lower, c.lower, 1e-11), "lower \(result.lower)")
    #expect(close(result.upper, c.upper, 1e-11), "upper \(result.upper)")
    #expect(close(result.pValue, c.p, 1e-10), "p \(result.pValue)")
    // The p-value and the interval are one test: p < alpha exactly when 0 is outside.
    #expect((result.pValue < c.alpha) == (result.isAboveZero || result.isBelowZero))
  }

  @Test("the rollout helpers measure on minus off: errors and the ratio of geometric means")
  func rolloutHelpers() throws {
    // gbstats 0.8.0 with stat_a = 60/1000 and stat_b = 50/1000 gives -0.01, [-0.04184, 0.02184]:
    // on 60 against off 50 is its mirror image.
    let errors = try #require(
      SequentialComparison.errorRates(
        failuresOn: 60, trialsOn: 1_000, failuresOff: 50, trialsOff: 1_000))
    #expect(close(errors.estimate, 0.01, 1e-12))
    #expect(close(errors.lower, -0.021841101818740487, 1e-11))
    #expect(close(errors.upper, 0.04184110181874048, 1e-11))
    #expect(!errors.isAboveZero && !errors.isBelowZero)
    #expect(
      errors.method
        == "asymptotic confidence sequence (Waudby-Smith et al. 2024), alpha 0.05, N* 5000")
    // The absolute-difference case of means above, read as log durations: the ratio is the
    // exponential of gbstats' estimate and interval.
    let c = Self.computed[0]
    let latency = try #require(
      SequentialComparison.logLatency(on: c.treatment, off: c.control))
    #expect(close(latency.ratio, 1.2641205546193017, 1e-11), "\(latency.ratio)")  // exp(0.23437…)
    #expect(close(latency.lower, 0.8520444957738479, 1e-11), "\(latency.lower)")
    #expect(close(latency.upper, 1.8754898183570414, 1e-11), "\(latency.upper)")
    #expect(!latency.isWorse)
    let slower = try #require(
      SequentialComparison.logLatency(
        on: Moments(values: (0..<400).map { 1 + Double($0 % 20) / 20 })!,
        off: Moments(values: (0..<400).map { Double($0 % 20) / 20 })!))
    #expect(slower.isWorse && slower.lower > 1 && close(slower.ratio, 2.718281828459045, 1e-9))
  }

  @Test(
    "an arm where every trial failed against one where none did is a breach at large samples",
    arguments: [
      // (failures on, trials on, failures off, trials off, above zero, below zero)
      (1_000, 1_000, 0, 1_000, true, false), (0, 1_000, 1_000, 1_000, false, true),
      (10, 10, 0, 1_000, true, false), (2, 2, 0, 2, false, false),
      (2, 2, 0, 1_000, false, false),
    ])
  func constantArmsThatDiffer(
    failuresOn: Int, trialsOn: Int, failuresOff: Int, trialsOff: Int, above: Bool, below: Bool
  ) throws {
    // p(1 − p) is 0 in both arms, so the published formula alone has no answer (nil below).
    let on = try #require(Moments(successes: failuresOn, trials: trialsOn))
    let off = try #require(Moments(successes: failuresOff, trials: trialsOff))
    #expect(SequentialComparison(treatment: on, control: off) == nil)
    let result = try #require(
      SequentialComparison.errorRates(
        failuresOn: failuresOn, trialsOn: trialsOn, failuresOff: failuresOff,
        trialsOff: trialsOff))
    #expect(result.isAboveZero == above && result.isBelowZero == below, "\(result)")
    #expect(result.pValue.isFinite && result.lower.isFinite && result.upper.isFinite)
  }

  @Test(
    "error rates with the same constant outcome in both arms give no evidence",
    arguments: [(0, 1_000, 0, 500), (1_000, 1_000, 500, 500), (0, 2, 0, 2)])
  func sameConstantOutcome(failuresOn: Int, trialsOn: Int, failuresOff: Int, trialsOff: Int) {
    #expect(
      SequentialComparison.errorRates(
        failuresOn: failuresOn, trialsOn: trialsOn, failuresOff: failuresOff,
        trialsOff: trialsOff) == nil)
  }

  @Test(
    "degenerate arms give no evidence instead of a trap or a NaN",
    arguments: [
      // (control, treatment, difference): fewer than two units, no variance, control mean 0
      (
        Moments(values: [1.0])!, Moments(values: [1.0, 2.0])!,
        SequentialComparison.Difference.absolute
      ),
      (Moments(values: [1.0, 2.0])!, Moments(values: [])!, .absolute),
      (Moments(successes: 0, trials: 500)!, Moments(successes: 0, trials: 500)!, .absolute),
      (Moments(successes: 500, trials: 500)!, Moments(successes: 500, trials: 500)!, .absolute),
      (Moments(values: [3.0, 3.0])!, Moments(values: [3.0, 3.0, 3.0])!, .relative),
      (Moments(values: [-1.0, 1.0])!, Moments(values: [1.0, 2.0])!, .relative),
      (Moments(values: [1e-200, 2e-200])!, Moments(values: [1.0, 2.0])!, .relative),
    ])
  func degenerateArms(
    control: Moments, treatment: Moments, difference: SequentialComparison.Difference
  ) {
    #expect(
      SequentialComparison(treatment: treatment, control: control, difference: difference) == nil)
  }

  @Test(
    "a level or tuning outside its range gives no answer",
    arguments: [
      (0.0, 5_000.0), (1.0, 5_000.0), (-0.1, 5_000.0), (Double.nan, 5_000.0), (0.05, 0.0),
      (0.05, -1.0), (0.05, Double.infinity), (0.05, Double.nan),
    ])
  func parametersOutOfRange(alpha: Double, tuning: Double) {
    let a = Moments(successes: 50, trials: 1_000)!
    let b = Moments(successes: 65, trials: 1_000)!
    #expect(SequentialComparison(treatment: b, control: a, alpha: alpha, tuning: tuning) == nil)
  }

  @Test("overwhelming evidence underflows the p-value to 0, never to NaN or a trap")
  func overwhelmingEvidence() throws {
    let a = try #require(Moments(successes: 1, trials: 1_000_000_000))
    let b = try #require(Moments(successes: 500_000_000, trials: 1_000_000_000))
    let result = try #require(SequentialComparison(treatment: b, control: a))
    #expect(result.pValue == 0 && result.isAboveZero && result.lower.isFinite)
  }
}
