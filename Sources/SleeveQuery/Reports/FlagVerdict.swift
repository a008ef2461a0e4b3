import SleeveCore

/// One flag's rollout verdict with the evidence: each check with value, threshold, n, method
/// and p-value. Never a bare verdict.
///
/// Checks: the flag's `maxErrorRate` and `maxP99` against the flag-on cohort; and, when there is
/// a flag-off cohort, flag-on against flag-off. Fixed-horizon (the default): error rate by a
/// one-sided two-proportion z-test, latency by a one-sided Mann-Whitney U test with the
/// Hodges-Lehmann shift, both at 95% confidence (the shift must also exceed 5% of the flag-off
/// median, so a large sample cannot call a negligible slowdown significant). Sequential
/// (``Options/sequential``): both by asymptotic confidence sequences, valid however often the
/// check is repeated on a growing selection (``SequentialComparison``).
///
/// A flag rolling out by percentage is judged on the two cohorts of the share it serves now,
/// which ran at the same time, and two guards come first: the split must match the share
/// (``SampleRatioTest``: a mismatch holds, and the on-versus-off comparisons are reported but
/// do not decide, since a broken split makes them untrustworthy) and neither cohort may have
/// lost more than ``Options/maximumLostShare`` of its outcomes to sessions that lost data (it
/// holds). A check marked advisory (``CheckSeverity``) is reported and never decides.
public struct FlagVerdict: Equatable, Sendable {
  /// How a flag is judged.
  public struct Options: Equatable, Sendable {
    /// The sample floor, overriding the stage's and the flag's own.
    public var minSamples: Int?
    /// Whether the on-versus-off comparisons are sequential (confidence sequences) instead of
    /// fixed-horizon tests.
    public var sequential: Bool
    /// Severities that override the flag definition's.
    public var severities: [FlagCheck: CheckSeverity]
    /// The largest share of a rollout cohort's outcomes that may sit in sessions that lost
    /// data (unterminated, dropped events, failed writes) before it cannot promote.
    public var maximumLostShare: Double

    /// The default largest lost share: 5%.
    public static let defaultMaximumLostShare = 0.05

    /// Fixed-horizon tests, the flag's own floors and severities.
    public init(
      minSamples: Int? = nil, sequential: Bool = false,
      severities: [FlagCheck: CheckSeverity] = [:],
      maximumLostShare: Double = defaultMaximumLostShare
    ) {
      self.minSamples = minSamples
      self.sequential = sequential
      self.severities = severities
      self.maximumLostShare = maximumLostShare
    }
  }

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
    self.init(report, options: Options(minSamples: override))
  }

  /// Judges `report` as `options` say.
  public init(_ report: FlagReport, options: Options) {
    var checks: [GateCheck] = []
    var notes: [String] = []
    var subject = "flag \(report.key)"
    var on = report.on
    var off = report.off
    var onLog = on.logMoments
    var offLog = off.logMoments
    var floor = options.minSamples ?? report.minSamples ?? GateThresholds.defaultMinSamples
    var splitIsBroken = false
    // A flag rolling out is judged on the share it serves now, even with nothing recorded at
    // that share yet (then it holds: a stage never passes on another stage's outcomes).
    let served = report.history.last?.percent.map { percent in
      report.currentStage ?? StageCohorts.empty(at: percent)
    }
    if let stage = served {
      // Concurrent cohorts: only what ran at the share served now.
      subject += " at \(stage.percent)"
      (on, off) = (stage.on.cohort, stage.off.cohort)
      (onLog, offLog) = (stage.on.logMoments, stage.off.logMoments)
      if let stageFloor = report.rollout?.stage(at: stage.percent)?.minSamples {
        floor = options.minSamples ?? stageFloor
      }
      splitIsBroken = stage.sampleRatio?.isMismatch == true
      checks.append(Self.sampleRatioCheck(subject, stage: stage))
      checks.append(Self.dataLossCheck(subject, stage: stage, options: options))
      if stage.on.outcomes + stage.off.outcomes == 0 {
        notes.append(
          "Nothing recorded at \(stage.percent) yet (stage cohorts are read from raw rows): "
            + "the flag holds until sessions run at that share.")
      }
      if stage.unassigned > 0 {
        notes.append(
          "\(stage.unassigned) outcome\(stage.unassigned == 1 ? "" : "s") had no unit (served "
            + "off outside the split) and count in no cohort.")
      }
    }
    func severity(_ check: FlagCheck) -> CheckSeverity {
      options.severities[check] ?? report.severities[check] ?? .critical
    }
    var decided: [GateCheck] = []
    if let maxErrorRate = report.maxErrorRate {
      decided.append(
        GateCheck(
          subject: subject + " (on)", metric: .errorRate, value: on.errorRate,
          threshold: maxErrorRate, n: on.n, minSamples: floor
        ).weighed(severity(.errorRate)))
    }
    if let maxP99 = report.maxP99Nanoseconds {
      var check = GateCheck(
        subject: subject + " (on)", metric: .p99, value: on.p99Nanoseconds,
        threshold: Double(maxP99), n: on.n, minSamples: max(floor, 100))
      check.methodDetail = on.relativeError.map(GateCheck.histogramP99Method)
      decided.append(check.weighed(severity(.p99)))
    }
    if off.n == 0 {
      notes.append("No flag-off cohort: judged on its thresholds alone.")
    } else {
      var comparisons =
        options.sequential
        ? [
          Self.sequentialErrorRate(subject, on: on, off: off, floor: floor),
          Self.sequentialLatency(subject, on: (on, onLog), off: (off, offLog), floor: floor),
        ]
        : [
          Self.errorRateComparison(subject, on: on, off: off, floor: floor),
          Self.latencyComparison(subject, on: on, off: off, floor: floor),
        ]
      comparisons[0] = comparisons[0].weighed(severity(.errorRateVersusOff))
      comparisons[1] = comparisons[1].weighed(severity(.latencyVersusOff))
      if splitIsBroken {
        comparisons = comparisons.map { $0.untrusted("the split does not match the share") }
      }
      decided += comparisons
    }
    if decided.isEmpty && checks.isEmpty {
      notes.append("No thresholds and no flag-off cohort: nothing to judge.")
    }
    flag = report.key
    self.checks = checks + decided
    self.notes = notes
    decision = RolloutDecision(self.checks)
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

  /// The split of a rolling-out stage against its share, in units: a mismatch holds (its
  /// verdict is `insufficient`, with the reason), and so does a split too small to check.
  private static func sampleRatioCheck(_ subject: String, stage: StageCohorts) -> GateCheck {
    let test = stage.sampleRatio
    let n = stage.on.units + stage.off.units
    let numbers =
      "\(stage.on.units) units on, \(stage.off.units) off at \(stage.percent)"
      + (test.map {
        "; expected \(NumberText.fixed($0.expectedOn, digits: 2)) on, "
          + "\(NumberText.fixed($0.expectedOff, digits: 2)) off"
      } ?? "")
    let verdict: GateCheck.Verdict
    let detail: String
    switch test?.outcome {
    case .consistent?:
      verdict = .pass
      detail = "consistent: " + numbers
    case .mismatch?:
      verdict = .insufficient
      detail =
        "mismatch: " + numbers + "; holds the rollout (a broken split makes the "
        + "comparisons untrustworthy)"
    case .notCheckable(let reason)?:
      verdict = .insufficient
      detail = reason.description + ": " + numbers
    case nil:
      verdict = .insufficient
      detail = "no split: " + numbers
    }
    return GateCheck(
      subject: subject + " (split)", metric: .sampleRatio, value: test?.pValue,
      threshold: SampleRatioTest.threshold, n: n,
      minSamples: SampleRatioTest.minimumUnitsPerArm, verdict: verdict, pValue: test?.pValue,
      detail: detail)
  }

  /// The share of each cohort's outcomes in sessions that lost data: above the limit, the
  /// stage cannot promote (its verdict is `insufficient`, with the shares).
  private static func dataLossCheck(
    _ subject: String, stage: StageCohorts, options: Options
  ) -> GateCheck {
    let worst = max(stage.on.lostShare, stage.off.lostShare)
    let n = stage.on.outcomes + stage.off.outcomes
    let detail =
      "on \(NumberText.percent(stage.on.lostShare)) of \(stage.on.outcomes), off "
      + "\(NumberText.percent(stage.off.lostShare)) of \(stage.off.outcomes) outcomes in sessions "
      + "that lost data (unterminated, dropped events or failed writes)"
    return GateCheck(
      subject: subject + " (data)", metric: .dataLoss, value: worst,
      threshold: options.maximumLostShare, n: n, minSamples: 1,
      verdict: worst > options.maximumLostShare ? .insufficient : .pass, pValue: nil,
      detail: worst > options.maximumLostShare ? detail + "; cannot promote" : detail)
  }

  /// Flag-on against flag-off error rates by a confidence sequence: worse when the whole
  /// interval of on minus off lies above 0.
  private static func sequentialErrorRate(
    _ subject: String, on: FlagReport.Cohort, off: FlagReport.Cohort, floor: Int
  ) -> GateCheck {
    let n = min(on.n, off.n)
    let comparison = SequentialComparison.errorRates(
      failuresOn: on.failed, trialsOn: on.n, failuresOff: off.failed, trialsOff: off.n)
    // Enough samples but no comparison: both arms are one constant (no variance), so
    // nothing differs; as the fixed-horizon test's p = 1 says, that passes.
    let verdict: GateCheck.Verdict =
      n < floor ? .insufficient : (comparison?.isAboveZero == true ? .breach : .pass)
    var check = GateCheck(
      subject: subject + " (on vs off)", metric: .errorRateVersusOff, value: on.errorRate,
      threshold: off.errorRate ?? 0, n: n, minSamples: floor, verdict: verdict,
      pValue: comparison?.pValue,
      detail: "on n \(on.n), off n \(off.n)"
        + (comparison.map {
          "; on minus off \(NumberText.signedPercent($0.estimate)) in "
            + "[\(NumberText.signedPercent($0.lower)), \(NumberText.signedPercent($0.upper))]"
        } ?? "; " + noVarianceNote))
    check.methodDetail =
      (comparison?.method ?? SequentialComparison.method())
      + ", on minus off; flag-on worse when the interval lies above 0"
    return check
  }

  /// Flag-on against flag-off latency by a confidence sequence on ln(duration): slower when
  /// the interval of the geometric-mean ratio lies above 1 and the ratio is at least
  /// 1 + ``practicalShift``.
  private static func sequentialLatency(
    _ subject: String, on: (cohort: FlagReport.Cohort, log: Moments?),
    off: (cohort: FlagReport.Cohort, log: Moments?), floor: Int
  ) -> GateCheck {
    let n = min(on.cohort.n, off.cohort.n)
    let ratio = on.log.flatMap { onLog in
      off.log.flatMap { SequentialComparison.logLatency(on: onLog, off: $0) }
    }
    let verdict: GateCheck.Verdict
    if n < floor {
      verdict = .insufficient
    } else if let ratio, ratio.isWorse && ratio.ratio >= 1 + practicalShift {
      verdict = .breach
    } else {
      verdict = .pass
    }
    var check = GateCheck(
      subject: subject + " (on vs off)", metric: .latencyRatioVersusOff, value: ratio?.ratio,
      threshold: 1 + practicalShift, n: n, minSamples: floor, verdict: verdict,
      pValue: ratio?.logScale.pValue,
      detail: ratio.map {
        "geometric mean on/off \(NumberText.ratio($0.ratio)) in [\(NumberText.ratio($0.lower)), "
          + "\(NumberText.ratio($0.upper))]"
      } ?? noVarianceNote)
    check.methodDetail =
      (ratio?.method ?? SequentialComparison.method() + ", on mean ln(duration)")
      + "; flag-on slower when the ratio's interval lies above 1 and the ratio is at least "
      + NumberText.ratio(1 + practicalShift)
    return check
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
