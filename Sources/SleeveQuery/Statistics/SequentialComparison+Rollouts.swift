/// The comparisons a rollout check makes at each look, on against off.
///
/// Both measure on minus off, so larger is worse: a breach is an interval entirely above 0
/// (``SequentialComparison/isAboveZero``, ``GeometricMeanRatio/isWorse``) at the two-sided level
/// alpha, which is a one-sided test at alpha / 2 that stays valid at every look.
extension SequentialComparison {
  /// The error rates' absolute difference, on minus off, each arm a proportion (variance
  /// p(1 − p)); `nil` when a count is impossible (failures outside `0...trials`) or there is no
  /// evidence (fewer than two trials in an arm, or both arms have the same constant outcome:
  /// every trial failed in both, or none did).
  ///
  /// One degenerate case is kept rather than dropped, because a gate must not miss it: an arm
  /// where every trial failed against one where none did (on broken, off healthy) has no
  /// variance at all by p(1 − p), so the published formula has nothing to say. There, and only
  /// there, each arm's variance is taken as p̃(1 − p̃) with p̃ = (failures + 1) / (trials + 2)
  /// (one failure and one success added, as Agresti and Caffo's interval does). That gives no
  /// evidence at small samples (2 trials against 2, or 2 against 1,000) and a clear breach at
  /// large ones (10 failing trials against 1,000 clean ones); under equal rates the outcome
  /// itself is rare where it decides anything (below 1e-20 at 10 against 1,000), so the
  /// guarantee stands.
  ///
  /// ```swift
  /// let c = SequentialComparison.errorRates(
  ///   failuresOn: 60, trialsOn: 1_000, failuresOff: 50, trialsOff: 1_000)
  /// c?.isAboveZero  // false: 0.01 more errors is within the interval's reach of 0
  /// ```
  public static func errorRates(
    failuresOn: Int, trialsOn: Int, failuresOff: Int, trialsOff: Int,
    alpha: Double = defaultAlpha, tuning: Double = defaultTuning
  ) -> SequentialComparison? {
    guard var on = Moments(successes: failuresOn, trials: trialsOn),
      var off = Moments(successes: failuresOff, trials: trialsOff)
    else { return nil }
    if on.variance == 0, off.variance == 0, on.mean != off.mean {
      on = on.replacingVariance(with: adjustedVariance(failures: failuresOn, trials: trialsOn))
      off = off.replacingVariance(with: adjustedVariance(failures: failuresOff, trials: trialsOff))
    }
    return SequentialComparison(
      treatment: on, control: off, difference: .absolute, alpha: alpha, tuning: tuning)
  }

  /// Latency, on against off, from the moments of ln(duration) in each arm: the absolute
  /// difference of mean log duration, read back as the ratio of geometric means; `nil` when
  /// there is no evidence (see ``SequentialComparison``) or the ratio is not finite.
  ///
  /// Take the logarithm of durations in any one unit (the unit cancels in the difference);
  /// durations must be positive.
  public static func logLatency(
    on: Moments, off: Moments, alpha: Double = defaultAlpha, tuning: Double = defaultTuning
  ) -> GeometricMeanRatio? {
    guard
      let logScale = SequentialComparison(
        treatment: on, control: off, difference: .absolute, alpha: alpha, tuning: tuning)
    else { return nil }
    return GeometricMeanRatio(logScale: logScale)
  }

  /// p̃(1 − p̃) with one failure and one success added: p̃ = (failures + 1) / (trials + 2).
  private static func adjustedVariance(failures: Int, trials: Int) -> Double {
    let p = (Double(failures) + 1) / (Double(trials) + 2)
    return p * (1 - p)
  }
}
