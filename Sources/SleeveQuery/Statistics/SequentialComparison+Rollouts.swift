/// The comparisons a rollout check makes at each look, on against off.
///
/// Both measure on minus off, so larger is worse: a breach is an interval entirely above 0
/// (``SequentialComparison/isAboveZero``, ``GeometricMeanRatio/isWorse``) at the two-sided level
/// alpha, which is a one-sided test at alpha / 2 that stays valid at every look.
extension SequentialComparison {
  /// The error rates' absolute difference, on minus off, each arm a proportion (variance
  /// p(1 − p)); `nil` when a count is impossible (failures outside `0...trials`) or there is no
  /// evidence (fewer than two trials in an arm, or no variance: every trial in both arms failed,
  /// or none did).
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
    guard let on = Moments(successes: failuresOn, trials: trialsOn),
      let off = Moments(successes: failuresOff, trials: trialsOff)
    else { return nil }
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
}
