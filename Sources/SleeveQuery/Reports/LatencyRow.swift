/// The latency of one group: exact percentiles of the durations of the invocations that ran
/// (ok or failed), with n, min, max and mean.
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
  /// The mean, in nanoseconds.
  public let mean: Double?
  /// The requested percentiles, in the order asked.
  public let points: [Point]

  /// The row for a tally's durations (which it reorders).
  public init(key: String, durations: inout [Int64], percentiles: [Double]) {
    self.key = key
    n = durations.count
    min = durations.min()
    max = durations.max()
    mean =
      durations.isEmpty
      ? nil : durations.reduce(0.0) { $0 + Double($1) } / Double(durations.count)
    let values = Percentile.of(&durations, at: percentiles)
    let count = n
    points = percentiles.enumerated().map { index, point in
      Point(
        percentile: point, nanoseconds: values?[index],
        insufficient: Percentile.isInsufficient(count: count, point: point))
    }
  }
}
