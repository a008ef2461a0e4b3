#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A sequential comparison of durations on the log scale, read back as the ratio of the arms'
/// geometric means: on / off.
///
/// Durations are skewed (log-normal-like), so their logarithms are compared: the absolute
/// difference of mean ln(duration), on minus off, by ``SequentialComparison``. Its exponential is
/// the ratio of geometric means, and the interval's ends exponentiate with it (the map is
/// increasing), so the ratio's interval keeps the confidence sequence's guarantee. A ratio of
/// 1.10 reads "on is 10% slower in the geometric mean".
public struct GeometricMeanRatio: Equatable, Sendable {
  /// The comparison on the log scale (estimate and interval of mean ln on − mean ln off).
  public let logScale: SequentialComparison
  /// The ratio of geometric means, on / off: exp(estimate).
  public let ratio: Double
  /// The lower end of the ratio's interval: exp(lower).
  public let lower: Double
  /// The upper end of the ratio's interval: exp(upper).
  public let upper: Double

  /// Whether on is credibly slower: the whole interval lies above a ratio of 1 (the log-scale
  /// interval lies above 0).
  public var isWorse: Bool { logScale.isAboveZero }

  /// The method, as printed beside a verdict.
  public var method: String { logScale.method + ", on mean ln(duration)" }

  /// The ratio view of `logScale`; `nil` when an exponential is not finite (a difference of
  /// more than about 709 in mean ln(duration): not durations).
  public init?(logScale: SequentialComparison) {
    let (ratio, lower, upper) = (exp(logScale.estimate), exp(logScale.lower), exp(logScale.upper))
    guard ratio.isFinite, lower.isFinite, upper.isFinite else { return nil }
    self.logScale = logScale
    self.ratio = ratio
    self.lower = lower
    self.upper = upper
  }
}
