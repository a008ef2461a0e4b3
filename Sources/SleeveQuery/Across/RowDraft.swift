import SleeveStore

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
  /// What the latency test's method says after its name: empty on raw rows, how the
  /// histograms were ranked on summaries (``HistogramSample/methodNote(scale:)``).
  let latencyNote: String
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
    (errorWorse, errorBetter) = Self.errorTests(
      baseline: baseline, candidate: candidate, strata: strata)
    let latency: LatencyTests
    switch baseline.source.joined(candidate.source) {
    case .summaries:
      let baselineHistogram = baseline.pooledHistogram
      let candidateHistogram = candidate.pooledHistogram
      latency = Self.latencyTests(
        baseline: baseline, candidate: candidate, strata: strata,
        histograms: (baselineHistogram, candidateHistogram))
      before = Self.side(baseline, histogram: baselineHistogram)
      after = Self.side(candidate, histogram: candidateHistogram)
    case .mixed:
      latency = LatencyTests()
      before = Self.unusableSide(baseline)
      after = Self.unusableSide(candidate)
    case .rawRows, .none:
      // Each side's durations pooled over its strata, in ascending order: sorted once, then
      // ranked, paired and percentiled without another sort.
      var baselineDurations = baseline.sortedDurations
      var candidateDurations = candidate.sortedDurations
      latency = Self.latencyTests(
        baseline: baseline, candidate: candidate, strata: strata,
        baselineDurations: baselineDurations, candidateDurations: candidateDurations)
      before = Self.side(baseline, durations: &baselineDurations)
      after = Self.side(candidate, durations: &candidateDurations)
    }
    (latencyWorse, latencyBetter, shift, spread, latencyNote) = (
      latency.worse, latency.better, latency.shift, latency.spread, latency.note
    )
  }

  /// A row's latency tests both ways, its shift, the baseline's robust spread, and what the
  /// method says after its name (how the durations were ranked).
  private struct LatencyTests {
    var worse: RawTest?
    var better: RawTest?
    var shift: Double?
    var spread: Double?
    var note = ""
  }

  /// The one-sided error-rate tests both ways: within each common test when `strata` is
  /// given, else pooled; `nil` when a side never ran.
  private static func errorTests(
    baseline: SidePool, candidate: SidePool, strata: [String]?
  ) -> (RawTest?, RawTest?) {
    guard baseline.n > 0, candidate.n > 0 else { return (nil, nil) }
    guard let strata else {
      let worse = TwoProportionTest(
        successes1: candidate.failed, trials1: candidate.n, successes2: baseline.failed,
        trials2: baseline.n)
      let better = TwoProportionTest(
        successes1: baseline.failed, trials1: baseline.n, successes2: candidate.failed,
        trials2: candidate.n)
      return (
        worse.map { RawTest(pValue: $0.pValue, method: TwoProportionTest.method) },
        better.map { RawTest(pValue: $0.pValue, method: TwoProportionTest.method) }
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
    return (
      worse.map { RawTest(pValue: $0.pValue, method: StratifiedProportionTest.method) },
      better.map { RawTest(pValue: $0.pValue, method: StratifiedProportionTest.method) }
    )
  }

  /// The one-sided latency tests both ways and the shift on raw durations (exact): within
  /// each common test when `strata` is given, else pooled on the sides' sorted durations; no
  /// tests when a side never ran.
  private static func latencyTests(
    baseline: SidePool, candidate: SidePool, strata: [String]?, baselineDurations: [Int64],
    candidateDurations: [Int64]
  ) -> LatencyTests {
    var tests = LatencyTests()
    tests.spread = DetectableEffect.robustSpread(baselineDurations)
    guard baseline.n > 0, candidate.n > 0 else { return tests }
    guard let strata else {
      let slower = MannWhitneyTest(sorted: candidateDurations, baselineDurations)
      let faster = MannWhitneyTest(sorted: baselineDurations, candidateDurations)
      tests.worse = slower.map { RawTest(pValue: $0.pValue, method: MannWhitneyTest.method) }
      tests.better = faster.map { RawTest(pValue: $0.pValue, method: MannWhitneyTest.method) }
      tests.shift = HodgesLehmann.shift(sorted: candidateDurations, baselineDurations)?.estimate
      return tests
    }
    let pairs = strata.map { (baseline.strata[$0]!.durations, candidate.strata[$0]!.durations) }
    let slower = StratifiedRankTest(pairs.map { b, c in (first: c, second: b) })
    let faster = StratifiedRankTest(pairs.map { b, c in (first: b, second: c) })
    tests.worse = slower.map { RawTest(pValue: $0.pValue, method: StratifiedRankTest.method) }
    tests.better = faster.map { RawTest(pValue: $0.pValue, method: StratifiedRankTest.method) }
    tests.shift = weightedShift(
      pairs.map { b, c in
        (HodgesLehmann.shift(c, b)?.estimate, Double(b.count), Double(c.count))
      })
    return tests
  }

  /// The same tests on summary histograms: every value in a bucket tied at the bucket's value
  /// (``HistogramSample``), both sides bucketed at their common (lower) scale so they share
  /// buckets; the shift is the weighted median of bucket differences. The method note says so.
  private static func latencyTests(
    baseline: SidePool, candidate: SidePool, strata: [String]?,
    histograms: (baseline: ExponentialHistogram?, candidate: ExponentialHistogram?)
  ) -> LatencyTests {
    var tests = LatencyTests()
    let scale = [histograms.baseline?.scale, histograms.candidate?.scale].compactMap { $0 }.min()
    func grouped(_ histogram: ExponentialHistogram?) -> GroupedSample<Double> {
      guard let histogram, let scale, let sample = GroupedSample(histogram: histogram, scale: scale)
      else { return GroupedSample(checked: [], []) }
      return sample
    }
    let before = grouped(histograms.baseline)
    let after = grouped(histograms.candidate)
    tests.spread = DetectableEffect.robustSpread(grouped: before)
    guard let scale, baseline.n > 0, candidate.n > 0 else { return tests }
    tests.note = HistogramSample.methodNote(scale: scale)
    guard let strata else {
      let slower = MannWhitneyTest(grouped: after, before)
      let faster = MannWhitneyTest(grouped: before, after)
      tests.worse = slower.map { RawTest(pValue: $0.pValue, method: MannWhitneyTest.method) }
      tests.better = faster.map { RawTest(pValue: $0.pValue, method: MannWhitneyTest.method) }
      tests.shift = HodgesLehmann.shift(grouped: after, before)
      return tests
    }
    let pairs = strata.map {
      (grouped(baseline.strata[$0]!.histogram), grouped(candidate.strata[$0]!.histogram))
    }
    let slower = StratifiedRankTest(grouped: pairs.map { b, c in (first: c, second: b) })
    let faster = StratifiedRankTest(grouped: pairs.map { b, c in (first: b, second: c) })
    tests.worse = slower.map { RawTest(pValue: $0.pValue, method: StratifiedRankTest.method) }
    tests.better = faster.map { RawTest(pValue: $0.pValue, method: StratifiedRankTest.method) }
    tests.shift = weightedShift(
      pairs.map { b, c in (HodgesLehmann.shift(grouped: c, b), b.total, c.total) })
    return tests
  }

  /// The strata's shifts averaged with weights m·n/(m + n + 1) (m, n: the stratum's baseline
  /// and candidate sizes); `nil` when no stratum has one.
  private static func weightedShift(_ strata: [(shift: Double?, m: Double, n: Double)]) -> Double? {
    var weighted = 0.0
    var weights = 0.0
    for (shift, m, n) in strata {
      guard let shift else { continue }
      let weight = m * n / (m + n + 1)
      weighted += weight * shift
      weights += weight
    }
    return weights > 0 ? weighted / weights : nil
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
    if baseline.source.joined(candidate.source) == .mixed { reasons.append(Self.mixedMethod) }
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
          method: $0.method + ", Hodges-Lehmann shift" + latencyNote)
      },
      newFailureKinds: kinds, detectable: detectable, strata: strata?.count, verdict: verdict,
      causes: causes,
      minimumShift: max(minimumShift, options.minRelativeChange * (baselineMedian ?? 0)),
      reasons: reasons)
  }

  private static func side(_ pool: SidePool, durations: inout [Int64]) -> DiffRow.Side {
    let latency = LatencyRow(key: "", durations: &durations, percentiles: percentiles)
    return side(pool, points: latency.points, method: Percentile.method, relativeError: nil)
  }

  /// A side read from summaries: its percentiles by rank from its pooled histogram
  /// (``ExponentialHistogram/lowerPercentile(_:)``, within the histogram's relative error).
  private static func side(_ pool: SidePool, histogram: ExponentialHistogram?) -> DiffRow.Side {
    let count = histogram.map { Int(clamping: $0.count) } ?? 0
    let points = percentiles.map { point in
      LatencyRow.Point(
        percentile: point, nanoseconds: histogram?.lowerPercentile(point),
        insufficient: Percentile.isInsufficient(count: count, point: point))
    }
    let method = histogram.map { HistogramSample.percentileMethod(scale: $0.scale) }
    return side(
      pool, points: points, method: method ?? Percentile.method,
      relativeError: histogram.map { ExponentialMapping.relativeError(scale: $0.scale) })
  }

  /// A side of a row whose durations mixed summaries and raw rows: its counts, no percentiles.
  private static func unusableSide(_ pool: SidePool) -> DiffRow.Side {
    let points = percentiles.map {
      LatencyRow.Point(percentile: $0, nanoseconds: nil, insufficient: true)
    }
    return side(pool, points: points, method: mixedMethod, relativeError: nil)
  }

  private static func side(
    _ pool: SidePool, points: [LatencyRow.Point], method: String, relativeError: Double?
  ) -> DiffRow.Side {
    DiffRow.Side(
      n: pool.n, failed: pool.failed,
      errorRate: pool.n > 0 ? Double(pool.failed) / Double(pool.n) : nil,
      interval: WilsonInterval(successes: pool.failed, trials: pool.n),
      percentiles: points, percentileMethod: method, relativeError: relativeError,
      sessions: pool.sessions)
  }

  /// The percentiles each side shows.
  private static let percentiles: [Double] = [50, 95, 99]

  /// What a row whose durations mixed summaries and raw rows says instead of its latency.
  static let mixedMethod =
    "latency not compared: summary histograms and raw rows mixed (never combined)"
}
