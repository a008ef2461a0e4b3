/// One check of the CI gate: a measured value against a threshold, with its sample size.
public struct GateCheck: Equatable, Sendable {
  /// How a check came out.
  public enum Verdict: String, Equatable, Sendable {
    /// Enough samples, within the threshold.
    case pass
    /// Enough samples, past the threshold.
    case breach
    /// Fewer samples than the floor: no verdict, whatever the value.
    case insufficient
  }

  /// What is measured.
  public enum Metric: String, Equatable, Sendable {
    /// failed / (ok + failed).
    case errorRate
    /// The 99th percentile duration, nanoseconds.
    case p99
  }

  /// What the check covers, e.g. `flag new-checkout (on)` or `all handlers`.
  public let subject: String
  /// The metric.
  public let metric: Metric
  /// The measured value (`nil` when n is 0).
  public let value: Double?
  /// The threshold the value must not exceed.
  public let threshold: Double
  /// The sample size.
  public let n: Int
  /// The fewest samples for a verdict.
  public let minSamples: Int
  /// The verdict.
  public let verdict: Verdict

  /// How the value was computed.
  public var method: String {
    switch metric {
    case .errorRate: ErrorRateRow.method
    case .p99: Percentile.method
    }
  }

  /// Decides a check: `insufficient` below the sample floor, else `breach` past the threshold.
  public init(
    subject: String, metric: Metric, value: Double?, threshold: Double, n: Int, minSamples: Int
  ) {
    self.subject = subject
    self.metric = metric
    self.value = value
    self.threshold = threshold
    self.n = n
    self.minSamples = minSamples
    if n < minSamples || value == nil {
      verdict = .insufficient
    } else if let value, value > threshold {
      verdict = .breach
    } else {
      verdict = .pass
    }
  }
}

/// The gate's overall verdict: `breach` when any check with enough samples breaches, else
/// `insufficient` when any check lacks samples, else `pass`.
public struct GateResult: Equatable, Sendable {
  /// Every check, in order.
  public let checks: [GateCheck]

  /// The overall verdict.
  public var verdict: GateCheck.Verdict {
    if checks.contains(where: { $0.verdict == .breach }) { return .breach }
    if checks.contains(where: { $0.verdict == .insufficient }) { return .insufficient }
    return .pass
  }
}

/// Thresholds given on the command line, applied to every selected outcome.
public struct GateThresholds: Equatable, Sendable {
  /// The highest acceptable error rate, 0…1.
  public var maxErrorRate: Double?
  /// The highest acceptable p99, nanoseconds.
  public var maxP99Nanoseconds: Int64?
  /// The fewest samples for a verdict; overrides flag definitions when set.
  public var minSamples: Int?

  /// No thresholds.
  public init(maxErrorRate: Double? = nil, maxP99Nanoseconds: Int64? = nil, minSamples: Int? = nil)
  {
    self.maxErrorRate = maxErrorRate
    self.maxP99Nanoseconds = maxP99Nanoseconds
    self.minSamples = minSamples
  }

  /// The sample floor when neither the command line nor a flag definition gives one.
  public static let defaultMinSamples = 30
}
