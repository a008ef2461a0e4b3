extension QueryDatabase {
  /// Each flag's rollout verdict in the selected sessions.
  public func verdicts(matching filter: QueryFilter, minSamples: Int? = nil) throws
    -> [FlagVerdict]
  {
    try verdicts(matching: filter, options: FlagVerdict.Options(minSamples: minSamples)).map(
      \.verdict)
  }

  /// Each flag's report and rollout verdict in the selected sessions, judged as `options` say.
  public func verdicts(matching filter: QueryFilter, options: FlagVerdict.Options) throws
    -> [(report: FlagReport, verdict: FlagVerdict)]
  {
    try translating {
      try flags(matching: filter).map { ($0, FlagVerdict($0, options: options)) }
    }
  }

  /// The CI gate over the selected sessions: each flag's verdict, the command line's
  /// thresholds against every selected outcome and, with `baseline`, the checks against it
  /// (``BaselineRequest``). A p99 check needs at least 100 samples, whatever the floor says.
  /// `check` and `report` both decide by ``gateAnswer(in:thresholds:options:against:)``, so
  /// they never disagree.
  public func gate(
    matching filter: QueryFilter, thresholds: GateThresholds,
    options: FlagVerdict.Options = FlagVerdict.Options(), against baseline: BaselineRequest? = nil
  ) throws -> GateResult {
    try translating {
      try gateAnswer(
        in: select(filter, by: .handler), thresholds: thresholds, options: options,
        against: baseline
      ).result
    }
  }

  /// The gate over a resolved selection, as one answer (``GateAnswer``): every flag's report
  /// and verdict, the thresholds' checks over every selected outcome, and with `baseline`
  /// the checks against it (the quarantine list, and with `--quarantine flaky` the flaky
  /// analysis, deciding which handlers are not counted). The one entry point of the gate:
  /// `check` and `report` call it once each, and read everything they show from it.
  public func gateAnswer(
    in selection: OutcomeSelection, thresholds: GateThresholds, options: FlagVerdict.Options,
    against baseline: BaselineRequest?
  ) throws -> GateAnswer {
    try translating {
      let filter = selection.filter
      var options = options
      options.minSamples = thresholds.minSamples ?? options.minSamples
      let judged = try flags(in: selection.sessions, filter: filter).map {
        (report: $0, verdict: FlagVerdict($0, options: options))
      }
      var checks: [GateCheck] = []
      if thresholds.maxErrorRate != nil || thresholds.maxP99Nanoseconds != nil {
        let floor = thresholds.minSamples ?? GateThresholds.defaultMinSamples
        let bySession = selection.regrouped(by: .session)
        let all = try latency(in: bySession, percentiles: [99])
        let errors = try errorRates(in: bySession)
        let n = errors.reduce(0) { $0 + $1.n }
        let failed = errors.reduce(0) { $0 + $1.failed }
        if let maxErrorRate = thresholds.maxErrorRate {
          checks.append(
            GateCheck(
              subject: "all handlers", metric: .errorRate,
              value: n == 0 ? nil : Double(failed) / Double(n), threshold: maxErrorRate, n: n,
              minSamples: floor))
        }
        if let maxP99 = thresholds.maxP99Nanoseconds {
          let (p99, bound) = try overallP99(in: bySession, rows: all)
          var check = GateCheck(
            subject: "all handlers", metric: .p99, value: p99, threshold: Double(maxP99), n: n,
            minSamples: max(floor, 100))
          check.methodDetail = bound.map(GateCheck.histogramP99Method)
          checks.append(check)
        }
      }
      var result = GateResult(
        flags: judged.map(\.verdict).filter { !$0.checks.isEmpty }, global: checks)
      result.reports = judged.map(\.report).filter { report in
        result.flags.contains { $0.flag == report.key }
      }
      var comparedPlan: AnswerPlan?
      if let baseline {
        result.baseline = try baselineChecks(baseline, filter: filter)
        comparedPlan = try answerPlan(
          for: baseline.baseline + baseline.candidate, method: filter.method, grouping: .handler)
      }
      return GateAnswer(
        selection: selection, judged: judged, result: result, baseline: baseline,
        comparedPlan: comparedPlan)
    }
  }

  /// The p99 over every selected outcome (one group, whatever the sessions).
  private func overallP99(in selection: OutcomeSelection, rows: [LatencyRow]) throws
    -> (Double?, Double?)
  {
    if rows.count == 1 { return (rows[0].points.first?.nanoseconds, rows[0].relativeError) }
    var scan = OutcomeScan(
      database: self, sessions: selection.sessions, grouping: .session,
      filter: selection.filter, collectDurations: true)
    scan.plan = selection.plan
    var pooled = try GroupTally.pooled(scan.run())
    let row = LatencyRow(&pooled, percentiles: [99])
    return (row.points.first?.nanoseconds, row.relativeError)
  }
}
