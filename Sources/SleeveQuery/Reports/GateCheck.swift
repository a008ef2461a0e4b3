import SleeveCore

/// One check of the CI gate: a measured value against a threshold, with its sample size.
public struct GateCheck: Equatable, Sendable {
  /// How a check came out.
  public enum Verdict: String, Equatable, Sendable {
    /// Enough samples, within the threshold.
    case pass
    /// Enough samples, past the threshold.
    case breach
    /// Fewer samples than the floor: no verdict, whatever the value (or, against a baseline,
    /// a regression that has not reproduced in enough candidate sessions).
    case insufficient
    /// Not counted, and `detail` says why: a quarantined or flaky handler, a handler with no
    /// baseline, or one the candidate never ran. It never moves the decision.
    case advisory
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
    /// The candidate's error rate against its baseline's (value: candidate, threshold:
    /// baseline; `sleeve check --baseline`).
    case errorRateVersusBaseline
    /// The candidate's durations against its baseline's (value: the Hodges-Lehmann shift in
    /// nanoseconds, threshold: the smallest shift that counts).
    case latencyVersusBaseline
    /// Failures of a type the baseline never had (value: how many, threshold: 0).
    case newFailureTypes
    /// A rollout stage's split of units against its share (value: the chi-square p-value,
    /// threshold: 0.001); a mismatch holds.
    case sampleRatio
    /// The largest share of a rollout cohort's outcomes in sessions that lost data (value:
    /// that share, threshold: the most allowed); above it, the stage cannot promote.
    case dataLoss
    /// The flag-on durations against the flag-off ones by a confidence sequence (value: the
    /// ratio of geometric means, on / off; threshold: the smallest ratio that counts, 1.05).
    case latencyRatioVersusOff
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
  /// The test's own method, for a check against a baseline (pooled or test by test).
  public var methodDetail: String?
  /// Where the handler was registered (`File.swift:42`), for a check of one handler.
  public var site: String?
  /// Whether ``threshold`` is a measured or given value; `false` for a handler no baseline
  /// session ran, whose threshold is shown as `-` (nothing to compare with).
  public var thresholdKnown = true

  /// How the value was computed.
  public var method: String {
    switch metric {
    case .errorRate: ErrorRateRow.method
    case .p99: methodDetail ?? Percentile.method
    case .errorRateVersusOff:
      methodDetail
        ?? TwoProportionTest.method + ", flag-on worse when p < \(GateCheck.significance)"
    case .latencyVersusOff:
      MannWhitneyTest.method + ", Hodges-Lehmann shift; flag-on slower when p < "
        + "\(GateCheck.significance) and the shift exceeds the threshold"
    case .errorRateVersusBaseline, .latencyVersusBaseline:
      [
        methodDetail,
        "regressed when Holm's p < \(GateCheck.significance) and the change is at "
          + "least the minimum",
      ].compactMap { $0 }.joined(separator: "; ")
    case .newFailureTypes:
      "error type and message pattern (numbers and ids taken out) absent from every baseline "
        + "session"
    case .sampleRatio: SampleRatioTest.method
    case .dataLoss:
      "outcomes in unterminated sessions or sessions with dropped events or failed writes, "
        + "per cohort; the larger share"
    case .latencyRatioVersusOff: methodDetail ?? SequentialComparison.method()
    }
  }

  /// This check as `severity` counts it: an advisory check keeps its numbers, says what it
  /// would have found, and never moves the decision.
  func weighed(_ severity: CheckSeverity) -> GateCheck {
    guard severity == .advisory, verdict != .advisory else { return self }
    return replacingVerdict(.advisory, note: "advisory (would \(verdict.rawValue))")
  }

  /// This comparison reported but not counted, because `reason` makes it untrustworthy.
  func untrusted(_ reason: String) -> GateCheck {
    guard verdict != .advisory else { return self }
    return replacingVerdict(.advisory, note: "not counted: \(reason) (would \(verdict.rawValue))")
  }

  private func replacingVerdict(_ verdict: Verdict, note: String) -> GateCheck {
    var check = GateCheck(
      subject: subject, metric: metric, value: value, threshold: threshold, n: n,
      minSamples: minSamples, verdict: verdict, pValue: pValue,
      detail: detail.map { note + "; " + $0 } ?? note)
    check.methodDetail = methodDetail
    check.site = site
    check.thresholdKnown = thresholdKnown
    return check
  }

  /// The method of a p99 read from summaries whose percentiles are within `bound`: the
  /// estimate is compared with the threshold as it is, and the bound is stated beside it.
  static func histogramP99Method(_ bound: Double) -> String {
    AnswerPlan.histogramPercentileMethod + ", within " + AnswerPlan.bound(bound)
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
  /// breaches, else `hold` when any check lacks samples, else `promote`. Advisory checks never
  /// move it: only advisory checks is `promote` (nothing that counts failed).
  public init(_ checks: [GateCheck]) {
    if checks.isEmpty {
      self = .nothingToCheck
    } else if checks.allSatisfy({ $0.verdict == .advisory }) {
      self = .promote
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
  /// The checks against a baseline (`check --baseline`), one set per handler.
  public var baseline: [GateCheck] = []
  /// The reports the flag verdicts judged, in the same order (what `check --apply` acts on).
  public var reports: [FlagReport] = []

  /// Every check: flags, thresholds, then against the baseline.
  public var checks: [GateCheck] { flags.flatMap(\.checks) + global + baseline }

  /// The overall decision, with the same precedence as each flag's.
  public var decision: RolloutDecision { RolloutDecision(checks) }

  /// The checks against the baseline in the order a reader needs them: what rolls back
  /// (regressions and new failure types found often enough) first, then what holds, then
  /// what passed, then what is not counted; in the gate's order within each.
  public var baselineDecidingFirst: [GateCheck] {
    let rank: [GateCheck.Verdict: Int] = [.breach: 0, .insufficient: 1, .pass: 2, .advisory: 3]
    return baseline.enumerated().sorted {
      (rank[$0.element.verdict] ?? 4, $0.offset) < (rank[$1.element.verdict] ?? 4, $1.offset)
    }.map(\.element)
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
