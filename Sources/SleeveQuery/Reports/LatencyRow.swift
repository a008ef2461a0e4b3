import SleeveStore

/// The latency of one group: percentiles of the durations of the invocations that ran (ok or
/// failed), with n, min, max and mean. From raw rows the percentiles are exact (linear
/// interpolation, ``Percentile/method``); from summaries they are by rank (numpy
/// `method='lower'`) within ``relativeError``, and n, min, max and mean stay exact.
public struct LatencyRow: Equatable, Sendable {
  /// One requested percentile.
  public struct Point: Equatable, Sendable {
    /// The percentile, 0…100 (e.g. 99.9).
    public let percentile: Double
    /// Its value in nanoseconds, or `nil` when n is 0.
    public let nanoseconds: Double?
    /// Whether n < 1/(1 − p): too few invocations for this percentile to mean much.
    public let insufficient: Bool
  }

  /// The group.
  public let key: String
  /// Invocations measured.
  public let n: Int
  /// The shortest, in nanoseconds (`nil` when n is 0).
  public let min: Int64?
  /// The longest, in nanoseconds.
  public let max: Int64?
  /// The mean, in nanoseconds: the exact sum over n, rounded once (``ExactRounding``), so raw
  /// rows and summaries give the same `Double`.
  public let mean: Double?
  /// The requested percentiles, in the order asked.
  public let points: [Point]
  /// How far a percentile can be from the exact `lower` value, relative to it, when the row
  /// comes from summaries; `nil` when exact.
  public let relativeError: Double?

  /// The row for a tally's durations (which it reorders).
  public init(key: String, durations: inout [Int64], percentiles: [Double]) {
    self.key = key
    n = durations.count
    min = durations.min()
    max = durations.max()
    // Summed exactly (|sum| < 2^63 · 2^64), divided once: the mean summaries give.
    mean =
      durations.isEmpty
      ? nil
      : ExactRounding.quotient(
        durations.reduce(Int128(0)) { $0 + Int128($1) }, UInt64(durations.count))
    let values = Percentile.of(&durations, at: percentiles)
    points = Self.points(percentiles, values: values, count: n)
    relativeError = nil
  }

  /// The row for a group's merged summary histogram: percentiles by rank within its
  /// relative error; n, min, max and mean (from the exact sum) exact.
  public init(key: String, histogram: ExponentialHistogram, percentiles: [Double]) {
    self.key = key
    n = Int(clamping: histogram.count)
    min = histogram.minimum
    max = histogram.maximum
    mean = histogram.count == 0 ? nil : ExactRounding.quotient(histogram.sum, histogram.count)
    let values = histogram.count == 0 ? nil : percentiles.map { histogram.lowerPercentile($0) ?? 0 }
    points = Self.points(percentiles, values: values, count: n)
    relativeError = histogram.relativeError
  }

  /// The row for a tally, from its histogram when it was answered from summaries (the tally's
  /// durations are reordered).
  init(_ tally: inout GroupTally, percentiles: [Double]) {
    if let histogram = tally.histogram {
      self.init(key: tally.key, histogram: histogram, percentiles: percentiles)
    } else {
      self.init(key: tally.key, durations: &tally.durations, percentiles: percentiles)
    }
  }

  private static func points(_ percentiles: [Double], values: [Double]?, count: Int) -> [Point] {
    percentiles.enumerated().map { index, point in
      Point(
        percentile: point, nanoseconds: values?[index],
        insufficient: Percentile.isInsufficient(count: count, point: point))
    }
  }
}
