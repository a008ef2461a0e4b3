/// The Wilson score interval for a binomial proportion, at 95% confidence.
///
/// Better behaved than the normal approximation for small n and rates near 0 or 1: the bounds
/// stay within 0…1 and are not degenerate at 0 failures. The lower bound at 0 successes is
/// exactly 0, and the upper bound at `trials` successes exactly 1 (as statsmodels'
/// `proportion_confint(method="wilson")` gives).
public struct WilsonInterval: Equatable, Sendable {
  /// z for a two-sided 95% interval.
  public static let z95 = 1.959963984540054

  /// The lower bound, 0…1.
  public let lower: Double
  /// The upper bound, 0…1.
  public let upper: Double

  /// The interval for `successes` out of `trials`; `nil` when `trials` is 0.
  public init?(successes: Int, trials: Int, z: Double = WilsonInterval.z95) {
    guard trials > 0, successes >= 0, successes <= trials else { return nil }
    let n = Double(trials)
    let p = Double(successes) / n
    let z2 = z * z
    let denominator = 1 + z2 / n
    let center = (p + z2 / (2 * n)) / denominator
    let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
    // At 0 successes the bounds meet 0 exactly (and at all successes 1): center and half are
    // then equal in exact arithmetic, but not in floating point (2.8e-17 was printed).
    lower = successes == 0 ? 0 : max(0, center - half)
    upper = successes == trials ? 1 : min(1, center + half)
  }
}
