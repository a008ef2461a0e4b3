/// One row of a ``BaselineDiff`` on its way to a verdict: the raw one-sided tests first, the
/// adjusted p-values once every row's are known.
struct RowDraft {
  struct RawTest {
    let pValue: Double
    let method: String
  }

  let key: GroupKey
  let baseline: SidePool
  let candidate: SidePool
  let movedFrom: String?
  let options: DiffOptions
  /// The tests within each test run on both sides, or `nil` when pooled.
  let strata: [String]?
  /// Each side's n, errors and percentiles, and the baseline's robust spread: taken from the
  /// side's durations while the draft is built, so no draft keeps a copy of them (all rows'
  /// drafts exist at once, for the adjustments across rows).
  let before: DiffRow.Side
  let after: DiffRow.Side
  let spread: Double?
  let errorWorse: RawTest?
  let errorBetter: RawTest?
  let latencyWorse: RawTest?
  let latencyBetter: RawTest?
  let shift: Double?
  /// (Holm, BH q) of the error [0] and latency [1] regression tests.
  var adjusted: [Int: (holm: Double, q: Double)] = [:]
  /// BH q of the error [0] and latency [1] improvement tests.
  var betterQ: [Int: Double] = [:]

  /// Whether the row's tests can decide its verdict (both sides ran it, with enough samples).
  var judgeable: Bool { !isNewOrGone && !isInsufficient }
  var isNewOrGone: Bool { baseline.n == 0 || candidate.n == 0 }
  var isInsufficient: Bool {
    baseline.n < options.minSamples || candidate.n < options.minSamples
  }
  var newKinds: [(kind: FailureKind, count: Int)] {
    guard baseline.n > 0 else { return [] }
    return candidate.kinds.filter { baseline.kinds[$0.key] == nil }.map { ($0.key, $0.value) }
      .sorted { $0.kind < $1.kind }
  }

  init(
    key: GroupKey, baseline: SidePool, candidate: SidePool, movedFrom: String?,
    stratified: Bool, options: DiffOptions
  ) {
    self.key = key
    self.baseline = baseline
    self.candidate = candidate
    self.movedFrom = movedFrom
    self.options = options
    let common = Set(baseline.strata.keys).intersection(candidate.strata.keys).sorted()
    strata = stratified && !common.isEmpty ? common : nil
    // Each side's durations pooled over its strata, in ascending order: sorted once, then
    // ranked, paired and percentiled without another sort.
    var baselineDurations = baseline.sortedDurations
    var candidateDurations = candidate.sortedDurations
    (errorWorse, errorBetter, latencyWorse, latencyBetter, shift) = Self.tests(
      baseline: baseline, candidate: candidate, strata: strata,
      baselineDurations: baselineDurations, candidateDurations: candidateDurations)
    spread = DetectableEffect.robustSpread(baselineDurations)
    before = Self.side(baseline, durations: &baselineDurations)
    after = Self.side(candidate, durations: &candidateDurations)
  }

  /// The one-sided tests both ways and the shift: within each common test when `strata` is
  /// given, else pooled; all `nil` when a side never ran.
  private static func tests(
    baseline: SidePool, candidate: SidePool, strata: [String]?, baselineDurations: [Int64],
    candidateDurations: [Int64]
  ) -> (RawTest?, RawTest?, RawTest?, RawTest?, Double?) {
    guard baseline.n > 0, candidate.n > 0 else { return (nil, nil, nil, nil, nil) }
    guard let strata else {
      let errorWorse = TwoProportionTest(
        successes1: candidate.failed, trials1: candidate.n, successes2: baseline.failed,
        trials2: baseline.n)
      let errorBetter = TwoProportionTest(
        successes1: baseline.failed, trials1: baseline.n, successes2: candidate.failed,
        trials2: candidate.n)
      let slower = MannWhitneyTest(sorted: candidateDurations, baselineDurations)
      let faster = MannWhitneyTest(sorted: baselineDurations, candidateDurations)
      return (
        errorWorse.map { RawTest(pValue: $0.pValue, method: TwoProportionTest.method) },
        errorBetter.map { RawTest(pValue: $0.pValue, method: TwoProportionTest.method) },
        slower.map { RawTest(pValue: $0.pValue, method: MannWhitneyTest.method) },
        faster.map { RawTest(pValue: $0.pValue, method: MannWhitneyTest.method) },
        HodgesLehmann.shift(sorted: candidateDurations, baselineDurations)?.estimate
      )
    }
    let pairs = strata.map { (baseline.strata[$0]!, candidate.strata[$0]!) }
    let worse = StratifiedProportionTest(
      pairs.map { b, c in
        .init(successes1: c.failed, trials1: c.n, successes2: b.failed, trials2: b.n)
      })
    let better = StratifiedProportionTest(
      pairs.map { b, c in
        .init(successes1: b.failed, trials1: b.n, successes2: c.failed, trials2: c.n)
      })
    let slower = StratifiedRankTest(pairs.map { b, c in (first: c.durations, second: b.durations) })
    let faster = StratifiedRankTest(pairs.map { b, c in (first: b.durations, second: c.durations) })
    var weighted = 0.0
    var weights = 0.0
    for (b, c) in pairs {
      guard let estimate = HodgesLehmann.shift(c.durations, b.durations)?.estimate else {
        continue
      }
      let m = Double(b.durations.count)
      let n = Double(c.durations.count)
      let weight: Double = m * n / (m + n + 1)
      weighted += weight * estimate
      weights += weight
    }
    return (
      worse.map { RawTest(pValue: $0.pValue, method: StratifiedProportionTest.method) },
      better.map { RawTest(pValue: $0.pValue, method: StratifiedProportionTest.method) },
      slower.map { RawTest(pValue: $0.pValue, method: StratifiedRankTest.method) },
      faster.map { RawTest(pValue: $0.pValue, method: StratifiedRankTest.method) },
      weights > 0 ? weighted / weights : nil
    )
  }

  /// The finished row.
  func row() -> DiffRow {
    let errorChange = after.errorRate.flatMap { a in before.errorRate.map { a - $0 } }
    let baselineMedian = before.percentiles.first?.nanoseconds
    var reasons: [String] = []
    let verdict: DiffRow.Verdict
    var causes: [DiffRow.Cause] = []
    let kinds = newKinds
    // Whether a change (candidate − baseline, or its negation for an improvement) is at least
    // the absolute minimum and the relative one times the baseline's value.
    func large(_ change: Double?, absolute: Double, of base: Double?) -> Bool {
      guard let change else { return false }
      return change >= absolute && change >= options.minRelativeChange * (base ?? 0)
    }
    let minimumShift = Double(options.minLatencyChangeNanoseconds)
    let errorLarge = large(errorChange, absolute: options.minErrorChange, of: before.errorRate)
    let errorLargeBetter = large(
      errorChange.map(-), absolute: options.minErrorChange, of: before.errorRate)
    let latencyLarge = large(shift, absolute: minimumShift, of: baselineMedian)
    let latencyLargeBetter = large(shift.map(-), absolute: minimumShift, of: baselineMedian)
    let errorRegressed = errorLarge && (adjusted[0].map { $0.holm < options.alpha } ?? false)
    let latencyRegressed = latencyLarge && (adjusted[1].map { $0.holm < options.alpha } ?? false)
    let errorImproved = errorLargeBetter && (betterQ[0].map { $0 < options.alpha } ?? false)
    let latencyImproved = latencyLargeBetter && (betterQ[1].map { $0 < options.alpha } ?? false)
    if baseline.n == 0 {
      verdict = .new
      reasons.append("no baseline session ran it")
    } else if candidate.n == 0 {
      verdict = .gone
      reasons.append("no candidate session ran it")
    } else if !kinds.isEmpty {
      verdict = .regressed
      causes = [.newFailureType]
      reasons.append(
        "new failure type: "
          + kinds.map { "\($0.kind.display) (\($0.count)×)" }.joined(separator: ", ")
          + "; the baseline never failed this way")
      if errorRegressed {
        causes.append(.errorRate)
        reasons.append("more errors, significant after Holm's adjustment")
      }
      if latencyRegressed {
        causes.append(.latency)
        reasons.append("slower, significant after Holm's adjustment")
      }
    } else if isInsufficient {
      verdict = .insufficient
      reasons.append(
        "fewer than \(options.minSamples) invocations on a side (baseline \(baseline.n), "
          + "candidate \(candidate.n))")
    } else if errorRegressed || latencyRegressed {
      verdict = .regressed
      if errorRegressed { causes.append(.errorRate) }
      if latencyRegressed { causes.append(.latency) }
      if errorRegressed { reasons.append("more errors, significant after Holm's adjustment") }
      if latencyRegressed { reasons.append("slower, significant after Holm's adjustment") }
    } else if errorImproved || latencyImproved {
      verdict = .improved
      if errorImproved { reasons.append("fewer errors (BH q < \(options.alpha))") }
      if latencyImproved { reasons.append("faster (BH q < \(options.alpha))") }
    } else {
      verdict = .unchanged
      if adjusted[0].map({ $0.holm < options.alpha }) == true && !errorLarge {
        reasons.append("error rate change significant but below the minimum change")
      }
      if adjusted[1].map({ $0.holm < options.alpha }) == true && !latencyLarge {
        reasons.append("latency shift significant but below the minimum change")
      }
    }
    if let strata {
      reasons.append("compared test by test (\(strata.count) test\(strata.count == 1 ? "" : "s"))")
    }
    let showDetectable = verdict == .insufficient || verdict == .unchanged
    let detectable: (Double?, Double?) =
      showDetectable
      ? (
        before.errorRate.flatMap { rate in
          DetectableEffect.errorRate(
            baselineRate: rate, baselineTrials: baseline.n, candidateTrials: candidate.n,
            alpha: options.alpha, power: options.power
          ).map { $0 - rate }
        },
        spread.flatMap {
          DetectableEffect.latencyShift(
            spread: $0, baselineCount: baseline.n, candidateCount: candidate.n,
            alpha: options.alpha, power: options.power)
        }
      ) : (nil, nil)
    return DiffRow(
      key: key, site: candidate.site ?? baseline.site, movedFrom: movedFrom, baseline: before,
      candidate: after, errorChange: errorChange, latencyShift: shift,
      errorTest: errorWorse.map {
        DiffRow.Test(
          pValue: $0.pValue, holm: adjusted[0]?.holm, q: adjusted[0]?.q ?? $0.pValue,
          method: $0.method)
      },
      latencyTest: latencyWorse.map {
        DiffRow.Test(
          pValue: $0.pValue, holm: adjusted[1]?.holm, q: adjusted[1]?.q ?? $0.pValue,
          method: $0.method + ", Hodges-Lehmann shift")
      },
      newFailureKinds: kinds, detectable: detectable, strata: strata?.count, verdict: verdict,
      causes: causes,
      minimumShift: max(minimumShift, options.minRelativeChange * (baselineMedian ?? 0)),
      reasons: reasons)
  }

  private static func side(_ pool: SidePool, durations: inout [Int64]) -> DiffRow.Side {
    let latency = LatencyRow(key: "", durations: &durations, percentiles: [50, 95, 99])
    return DiffRow.Side(
      n: pool.n, failed: pool.failed,
      errorRate: pool.n > 0 ? Double(pool.failed) / Double(pool.n) : nil,
      interval: WilsonInterval(successes: pool.failed, trials: pool.n),
      percentiles: latency.points, sessions: pool.sessions)
  }
}
