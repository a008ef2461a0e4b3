#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The smallest changes a comparison of these sample sizes detects at a significance level with
/// a power, one-sided: what an `insufficient` row could have seen.
///
/// Both answers come from the power equation of the two-sample z-test (statsmodels'
/// `NormalIndPower`, `alternative="larger"`): a standardized effect e is detected with power
/// 1 − β at level α when e·√n′ = z₁₋α + z₁₋β, with n′ = 1 / (1/n₁ + 1/n₂). It is solved in
/// closed form here, so it stays exact where statsmodels' root finder drifts (to about 1e-5
/// relative at small n, and to a non-root near 10¹⁸ trials).
///
/// Counts are taken as `Double` (exact to 2⁵³, and within a part in 10¹⁶ beyond, far below
/// the statistic's own error), so any `Int` counts give an answer and nothing traps. A count ≤ 0
/// is an empty side: no answer. `alpha` or `power` outside the open interval 0…1 or NaN, or a
/// power not above `alpha`, give no answer either.
///
///     DetectableEffect.errorRate(baselineRate: 0.05, baselineTrials: 1_000, candidateTrials: 200)
///     // 0.1000…: a candidate failing 10% of 200 runs would be seen; 8% might not
public enum DetectableEffect {
  /// The method's name at the default level and power, as printed in reports.
  public static let method = method(alpha: 0.05, power: 0.8)

  /// The method's name for another level or power (power in whole percent, as 0.8 is "80%").
  public static func method(alpha: Double, power: Double) -> String {
    let percent = (power * 100).rounded()
    let powerText = percent.isFinite ? "\(Int(percent))%" : "\(power)"
    return "minimum detectable effect at \(powerText) power, one-sided, α = \(alpha)"
      + " (Cohen's h; Mann-Whitney via ARE 3/π)"
  }

  /// Noether's asymptotic relative efficiency of the Mann-Whitney test against the t-test for
  /// normal data: it needs π/3 times the observations for the same power.
  static let mannWhitneyEfficiency = 3 / Double.pi

  /// The smallest candidate error rate above `baselineRate` that a one-sided test detects with
  /// `power` at `alpha`, by Cohen's arcsine effect size h = 2·asin√p₂ − 2·asin√p₁: h from the
  /// power equation (statsmodels `NormalIndPower().solve_power(nobs1=baselineTrials,
  /// ratio=candidateTrials/baselineTrials, alpha, power, alternative="larger")`), then
  /// p₂ = sin²(asin√p₁ + h/2), capped at 1.
  ///
  /// From a baseline rate of 0 the answer is sin²(h/2): above 0 and finite. `baselineRate` is
  /// clamped into 0…1; NaN gives no answer. `nil` when a side has no trials.
  public static func errorRate(
    baselineRate: Double, baselineTrials: Int, candidateTrials: Int, alpha: Double = 0.05,
    power: Double = 0.8
  ) -> Double? {
    guard !baselineRate.isNaN,
      let h = standardizedEffect(
        baselineTrials: Double(baselineTrials), candidateTrials: Double(candidateTrials),
        alpha: alpha, power: power)
    else { return nil }
    let angle = asin(min(max(baselineRate, 0), 1).squareRoot()) + h / 2
    // sin² turns back down past π/2: the rate is capped there, where it reaches 1.
    guard angle < Double.pi / 2 else { return 1 }
    let rate = sin(angle)
    return min(rate * rate, 1)
  }

  /// The smallest latency shift (in the unit of `spread`) a one-sided Mann-Whitney test detects
  /// with `power` at `alpha`: Cohen's d from the power equation with each count scaled by the
  /// test's asymptotic relative efficiency 3/π (Noether), times `spread`, a robust standard
  /// deviation (``robustSpread(_:)`` of the baseline).
  ///
  /// `nil` when a side is empty or `spread` is NaN or negative; a spread of 0 (all values tied)
  /// gives 0, and an infinite one ∞.
  public static func latencyShift(
    spread: Double, baselineCount: Int, candidateCount: Int, alpha: Double = 0.05,
    power: Double = 0.8
  ) -> Double? {
    guard spread >= 0,
      let d = standardizedEffect(
        baselineTrials: Double(baselineCount) * mannWhitneyEfficiency,
        candidateTrials: Double(candidateCount) * mannWhitneyEfficiency, alpha: alpha,
        power: power)
    else { return nil }
    return spread == 0 ? 0 : d * spread
  }

  /// The interquartile range over 1.349 (a normal distribution's IQR in standard deviations):
  /// a standard deviation that outliers do not inflate. Quartiles by ``Percentile`` (numpy's
  /// default linear interpolation), in O(n) expected time on a copy; `nil` when empty.
  public static func robustSpread(_ values: [Int64]) -> Double? {
    var scratch = values
    guard let quartiles = Percentile.of(&scratch, at: [25, 75]) else { return nil }
    return (quartiles[1] - quartiles[0]) / 1.349
  }

  /// ``robustSpread(_:)`` of a grouped sample (ascending values with their counts, e.g. a
  /// summary histogram's buckets): its quartiles by the same linear interpolation
  /// (``Percentile/of(grouped:at:)``), the same answer as on the sample expanded, in
  /// O(distinct values); `nil` when empty.
  static func robustSpread(grouped sample: GroupedSample<Double>) -> Double? {
    guard let quartiles = Percentile.of(grouped: sample, at: [25, 75]) else { return nil }
    return (quartiles[1] - quartiles[0]) / 1.349
  }

  /// The standardized effect e with e·√n′ = z₁₋α + z₁₋β; `nil` for an empty side, a level or
  /// power outside 0…1, or a power not above the level (any test "detects" no effect that often).
  static func standardizedEffect(
    baselineTrials: Double, candidateTrials: Double, alpha: Double, power: Double
  ) -> Double? {
    guard baselineTrials > 0, candidateTrials > 0, alpha > 0, power > alpha, power < 1
    else { return nil }
    let effectiveCount = 1 / (1 / baselineTrials + 1 / candidateTrials)
    let z =
      NormalDistribution.inverseSurvival(alpha) + NormalDistribution.inverseSurvival(1 - power)
    return z / effectiveCount.squareRoot()
  }
}
