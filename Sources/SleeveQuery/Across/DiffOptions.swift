/// How `diff` (and `check --baseline`) judge a candidate against its baseline.
public struct DiffOptions: Equatable, Sendable {
  /// The significance level of every test, after Holm's adjustment for the verdicts that
  /// decide an exit code (95% confidence).
  public var alpha = 0.05
  /// The power at which the smallest detectable change of an `insufficient` row is given.
  public var power = 0.8
  /// The fewest invocations each side needs for a verdict on a rate or latency.
  public var minSamples = GateThresholds.defaultMinSamples
  /// The smallest rise of the error rate that counts, absolute (0.01: one point).
  public var minErrorChange = 0.01
  /// The smallest latency shift that counts, nanoseconds.
  public var minLatencyChangeNanoseconds: Int64 = 10_000
  /// The smallest change that counts relative to the baseline (its error rate, its median).
  public var minRelativeChange = 0.1

  /// The defaults: α 0.05, power 0.8, 30 samples a side, a change of at least 1 point of
  /// error rate or 10 µs of latency (a 120 Hz frame is 8,333 µs), and at least 10% of the
  /// baseline's.
  public init() {}
}
