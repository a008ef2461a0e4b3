/// The count, mean and variance of one arm's values: what a comparison of means needs.
///
/// Two kinds, as in GrowthBook's gbstats: a sample of measured values (built from the count, the
/// sum and the sum of squares, variance with n − 1, as its `SampleMeanStatistic`), and a
/// proportion (built from successes and trials, variance p(1 − p), as its
/// `ProportionStatistic`). Everything is `Double`; measured values are summed shifted by the
/// first (``init(weighted:)``), so equal values have variance exactly 0.
///
/// ```swift
/// let errors = Moments(successes: 50, trials: 1_000)!  // mean 0.05, variance 0.0475
/// let logDurations = Moments(values: durations.map { log($0) })!
/// ```
public struct Moments: Equatable, Sendable {
  /// The number of values (units).
  public let count: Int
  /// The mean of the values.
  public let mean: Double
  /// The variance: the sample variance (n − 1) for measured values, 0 with fewer than two;
  /// p(1 − p) for a proportion. Never negative (rounding below 0 is clamped).
  public let variance: Double

  /// The moments of measured values from their count, sum and sum of squares; `nil` for a
  /// negative count, a sum or sum of squares that is not finite (or whose variance overflows),
  /// a negative sum of squares, or a count of 0 with sums other than 0.
  public init?(count: Int, sum: Double, sumOfSquares: Double) {
    guard count >= 0, sum.isFinite, sumOfSquares.isFinite, sumOfSquares >= 0 else { return nil }
    guard count > 0 else {
      guard sum == 0, sumOfSquares == 0 else { return nil }
      (self.count, mean, variance) = (0, 0, 0)
      return
    }
    let n = Double(count)
    self.count = count
    mean = sum / n
    if count < 2 {
      variance = 0
    } else {
      let centred = (sumOfSquares - sum * sum / n) / (n - 1)
      guard centred.isFinite else { return nil }
      variance = max(0, centred)
    }
  }

  /// The moments of `values`, as ``init(weighted:)`` with each value counted once.
  public init?(values: some Sequence<Double>) {
    self.init(weighted: values.lazy.map { (value: $0, count: 1) })
  }

  /// The moments of `values`, each counted `count` times (a grouped sample: a histogram's
  /// buckets), from sums shifted by the first value: mean = x₀ + Σc(x − x₀)/n and variance
  /// (Σc(x − x₀)² − (Σc(x − x₀))²/n)/(n − 1). Shifting removes the cancellation of the
  /// textbook Σx² − (Σx)²/n, which leaves rounding noise (2.5e-13 for ten equal
  /// ln(123,456,789)): equal values have variance exactly 0 and their own value as mean, so a
  /// constant arm reads as constant. `nil` when a value or a sum is not finite, a count is
  /// negative, or the total count passes `Int.max`.
  public init?(weighted values: some Sequence<(value: Double, count: Int)>) {
    var count = 0
    var origin: Double?
    var sum = 0.0
    var sumOfSquares = 0.0
    for (value, times) in values where times != 0 {
      guard times > 0, value.isFinite else { return nil }
      let (total, overflow) = count.addingReportingOverflow(times)
      guard !overflow else { return nil }
      count = total
      let shift = origin ?? value
      origin = shift
      let deviation = value - shift
      sum += deviation * Double(times)
      sumOfSquares += deviation * deviation * Double(times)
    }
    guard let origin, count > 0 else {
      self.init(count: 0, sum: 0, sumOfSquares: 0)
      return
    }
    guard let shifted = Moments(count: count, sum: sum, sumOfSquares: sumOfSquares) else {
      return nil
    }
    let mean = origin + shifted.mean
    guard mean.isFinite else { return nil }
    self.init(count: count, mean: mean, variance: shifted.variance)
  }

  /// The moments of a proportion: mean `successes / trials`, variance p(1 − p); `nil` when
  /// `successes` is not in `0...trials`.
  public init?(successes: Int, trials: Int) {
    guard trials >= 0, successes >= 0, successes <= trials else { return nil }
    count = trials
    guard trials > 0 else {
      (mean, variance) = (0, 0)
      return
    }
    let p = Double(successes) / Double(trials)
    mean = p
    variance = max(0, p * (1 - p))
  }

  /// The same count and mean with another variance (for a variance adjusted by a method).
  func replacingVariance(with variance: Double) -> Moments {
    Moments(count: count, mean: mean, variance: max(0, variance))
  }

  private init(count: Int, mean: Double, variance: Double) {
    (self.count, self.mean, self.variance) = (count, mean, variance)
  }
}
