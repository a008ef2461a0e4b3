/// One flag's rollout verdict with the evidence: each check with value, threshold, n, method
/// and p-value. Never a bare verdict.
///
/// Checks: the flag's `maxErrorRate` and `maxP99` against the flag-on cohort; and, when there is
/// a flag-off cohort, flag-on against flag-off: error rate by a one-sided two-proportion z-test,
/// latency by a one-sided Mann-Whitney U test with the Hodges-Lehmann shift, both at 95%
/// confidence (the shift must also exceed 5% of the flag-off median, so a large sample cannot
/// call a negligible slowdown significant).
public struct FlagVerdict: Equatable, Sendable {
  /// The flag's key.
  public let flag: String
  /// promote, hold or rollback; `nothingToCheck` when the flag has no check.
  public let decision: RolloutDecision
  /// The checks, thresholds first, then the comparisons.
  public let checks: [GateCheck]
  /// What the reader should know about how the flag was judged.
  public let notes: [String]

  /// The smallest latency shift that can count against flag-on, as a fraction of the flag-off
  /// median.
  public static let practicalShift = 0.05

  /// Judges `report`; `minSamples` (from the command line) overrides the flag's own floor.
  public init(_ report: FlagReport, minSamples override: Int? = nil) {
    let floor = override ?? report.minSamples ?? GateThresholds.defaultMinSamples
    let on = report.on
    let off = report.off
    var checks: [GateCheck] = []
    var notes: [String] = []
    let subject = "flag \(report.key)"
    if let maxErrorRate = report.maxErrorRate {
      checks.append(
        GateCheck(
          subject: subject + " (on)", metric: .errorRate, value: on.errorRate,
          threshold: maxErrorRate, n: on.n, minSamples: floor))
    }
    if let maxP99 = report.maxP99Nanoseconds {
      var check = GateCheck(
        subject: subject + " (on)", metric: .p99, value: on.p99Nanoseconds,
        threshold: Double(maxP99), n: on.n, minSamples: max(floor, 100))
      check.methodDetail = on.relativeError.map(GateCheck.histogramP99Method)
      checks.append(check)
    }
    if off.n == 0 {
      notes.append("No flag-off cohort: judged on its thresholds alone.")
    } else {
      checks.append(Self.errorRateComparison(subject, on: on, off: off, floor: floor))
      checks.append(Self.latencyComparison(subject, on: on, off: off, floor: floor))
    }
    if checks.isEmpty {
      notes.append("No thresholds and no flag-off cohort: nothing to judge.")
    }
    flag = report.key
    self.checks = checks
    self.notes = notes
    decision = RolloutDecision(checks)
  }

  private static func errorRateComparison(
    _ subject: String, on: FlagReport.Cohort, off: FlagReport.Cohort, floor: Int
  ) -> GateCheck {
    let n = min(on.n, off.n)
    let test = TwoProportionTest(
      successes1: on.failed, trials1: on.n, successes2: off.failed, trials2: off.n)
    let verdict: GateCheck.Verdict =
      n < floor || test == nil
      ? .insufficient
      : (test!.pValue < GateCheck.significance ? .breach : .pass)
    var detail = "on n \(on.n), off n \(off.n)"
    if test?.noVariance == true { detail += "; " + noVarianceNote }
    return GateCheck(
      subject: subject + " (on vs off)", metric: .errorRateVersusOff, value: on.errorRate,
      threshold: off.errorRate ?? 0, n: n, minSamples: floor, verdict: verdict,
      pValue: test?.pValue, detail: detail)
  }

  private static func latencyComparison(
    _ subject: String, on: FlagReport.Cohort, off: FlagReport.Cohort, floor: Int
  ) -> GateCheck {
    let n = min(on.n, off.n)
    let test: MannWhitneyTest?
    let shift: (estimate: Double, subsampled: Bool)?
    var note = ""
    if let onHistogram = on.histogram, let offHistogram = off.histogram,
      case let scale = min(onHistogram.scale, offHistogram.scale),
      let onSample = GroupedSample(histogram: onHistogram, scale: scale),
      let offSample = GroupedSample(histogram: offHistogram, scale: scale)
    {
      // Both cohorts from summaries: the rank test and shift on their buckets, ties within a
      // bucket (``HistogramSample``), as `diff` runs them.
      test = MannWhitneyTest(grouped: onSample, offSample)
      shift = HodgesLehmann.shift(grouped: onSample, offSample).map { ($0, false) }
      note = HistogramSample.methodNote(scale: scale)
    } else {
      test = MannWhitneyTest(on.durations, off.durations)
      shift = HodgesLehmann.shift(on.durations, off.durations)
    }
    let minimum = (off.p50Nanoseconds ?? 0) * practicalShift
    let verdict: GateCheck.Verdict
    if n < floor || test == nil || shift == nil {
      verdict = .insufficient
    } else if test!.pValue < GateCheck.significance && shift!.estimate > minimum {
      verdict = .breach
    } else {
      verdict = .pass
    }
    var detail = "median on \(Self.nanoseconds(on.p50Nanoseconds)) vs off "
    detail += Self.nanoseconds(off.p50Nanoseconds)
    if shift?.subsampled == true { detail += "; shift from evenly spaced subsamples" }
    if !note.isEmpty { detail += ";" + note }
    if test?.noVariance == true { detail += "; " + noVarianceNote }
    return GateCheck(
      subject: subject + " (on vs off)", metric: .latencyVersusOff, value: shift?.estimate,
      threshold: minimum, n: n, minSamples: floor, verdict: verdict, pValue: test?.pValue,
      detail: detail)
  }

  /// What a comparison with no variance says: the p-value is 1 by decision (see README).
  public static let noVarianceNote = "no variance (every value equal): p = 1, no evidence"

  /// `1234 ns`; a value a file can hold beyond Int64 (a median of `Int64.max`) is printed as
  /// the `Double` it is, never converted with a trap.
  private static func nanoseconds(_ value: Double?) -> String {
    guard let value else { return "-" }
    let rounded = value.rounded()
    guard let exact = Int64(exactly: rounded) else { return "\(rounded) ns" }
    return "\(exact) ns"
  }
}
