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
    /// failed / (ok + failed), against a maximum.
    case errorRate
    /// The 99th percentile duration, nanoseconds, against a maximum.
    case p99
    /// The flag-on error rate against the flag-off one (value: on, threshold: off).
    case errorRateVersusOff
    /// The flag-on durations against the flag-off ones (value: the Hodges-Lehmann shift in
    /// nanoseconds, threshold: the smallest shift that counts, 5% of the flag-off median).
    case latencyVersusOff
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
  /// The p-value of a cohort comparison (`nil` for a threshold check or too few samples).
  public let pValue: Double?
  /// What else a reader needs (e.g. the two cohorts' medians), if anything.
  public let detail: String?

  /// How the value was computed.
  public var method: String {
    switch metric {
    case .errorRate: ErrorRateRow.method
    case .p99: Percentile.method
    case .errorRateVersusOff:
      TwoProportionTest.method + ", flag-on worse when p < \(GateCheck.significance)"
    case .latencyVersusOff:
      MannWhitneyTest.method + ", Hodges-Lehmann shift; flag-on slower when p < "
        + "\(GateCheck.significance) and the shift exceeds the threshold"
    }
  }

  /// The significance level of the cohort comparisons (95% confidence).
  public static let significance = 0.05

  /// Decides a check: `insufficient` below the sample floor, else `breach` past the threshold.
  public init(
    subject: String, metric: Metric, value: Double?, threshold: Double, n: Int, minSamples: Int
  ) {
    let verdict: Verdict
    if n < minSamples || value == nil {
      verdict = .insufficient
    } else if let value, value > threshold {
      verdict = .breach
    } else {
      verdict = .pass
    }
    self.init(
      subject: subject, metric: metric, value: value, threshold: threshold, n: n,
      minSamples: minSamples, verdict: verdict, pValue: nil, detail: nil)
  }

  /// A check whose verdict was decided by the caller (cohort comparisons).
  public init(
    subject: String, metric: Metric, value: Double?, threshold: Double, n: Int,
    minSamples: Int, verdict: Verdict, pValue: Double?, detail: String?
  ) {
    self.subject = subject
    self.metric = metric
    self.value = value
    self.threshold = threshold
    self.n = n
    self.minSamples = minSamples
    self.verdict = verdict
    self.pValue = pValue
    self.detail = detail
  }
}

/// A rollout decision, as Argo Rollouts' analysis calls them Successful, Inconclusive and
/// Failed; and, when there was nothing to judge, none of them.
public enum RolloutDecision: String, Equatable, Sendable {
  /// Every check passed.
  case promote
  /// No check with enough samples failed, but some check lacks samples.
  case hold
  /// A check with enough samples breached a threshold or found flag-on significantly worse.
  case rollback
  /// There was no check at all (no thresholds and no flag-off cohort): `check` refuses to
  /// gate on it (exit 64), and `report` says so, never `promote`.
  case nothingToCheck = "nothing-to-check"

  /// The decision for a set of checks, the one home of it for a flag, `check` and `report`:
  /// `nothingToCheck` for no checks, else `rollback` when any check with enough samples
  /// breaches, else `hold` when any check lacks samples, else `promote`.
  public init(_ checks: [GateCheck]) {
    if checks.isEmpty {
      self = .nothingToCheck
    } else if checks.contains(where: { $0.verdict == .breach }) {
      self = .rollback
    } else if checks.contains(where: { $0.verdict == .insufficient }) {
      self = .hold
    } else {
      self = .promote
    }
  }
}

/// The gate: per-flag verdicts and the command line's checks, with one overall decision.
public struct GateResult: Equatable, Sendable {
  /// Each flag's verdict.
  public let flags: [FlagVerdict]
  /// The checks of the command line's thresholds over every selected outcome.
  public let global: [GateCheck]

  /// Every check, flags first.
  public var checks: [GateCheck] { flags.flatMap(\.checks) + global }

  /// The overall decision, with the same precedence as each flag's.
  public var decision: RolloutDecision { RolloutDecision(checks) }
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
