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
  /// `check` and `report` both decide by this one function, so they never disagree.
  public func gate(
    matching filter: QueryFilter, thresholds: GateThresholds,
    options: FlagVerdict.Options = FlagVerdict.Options(), against baseline: BaselineRequest? = nil
  ) throws -> GateResult {
    try judge(matching: filter, thresholds: thresholds, options: options, against: baseline)
      .result
  }

  /// The gate, with every flag's report and verdict (those with no check too, which the
  /// gate's result leaves out and a report still shows).
  func judge(
    matching filter: QueryFilter, thresholds: GateThresholds, options: FlagVerdict.Options,
    against baseline: BaselineRequest?
  ) throws -> (judged: [(report: FlagReport, verdict: FlagVerdict)], result: GateResult) {
    try translating {
      var options = options
      options.minSamples = thresholds.minSamples ?? options.minSamples
      let judged = try verdicts(matching: filter, options: options)
      let flags = judged.map(\.verdict)
      var checks: [GateCheck] = []
      if thresholds.maxErrorRate != nil || thresholds.maxP99Nanoseconds != nil {
        let floor = thresholds.minSamples ?? GateThresholds.defaultMinSamples
        var all = try latency(matching: filter, by: .session, percentiles: [99])
        let errors = try errorRates(matching: filter, by: .session)
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
          let (p99, bound) = try overallP99(matching: filter, rows: &all)
          var check = GateCheck(
            subject: "all handlers", metric: .p99, value: p99, threshold: Double(maxP99), n: n,
            minSamples: max(floor, 100))
          check.methodDetail = bound.map(GateCheck.histogramP99Method)
          checks.append(check)
        }
      }
      var result = GateResult(flags: flags.filter { !$0.checks.isEmpty }, global: checks)
      result.reports = judged.map(\.report).filter { report in
        result.flags.contains { $0.flag == report.key }
      }
      if let baseline {
        result.baseline = try baselineChecks(baseline, filter: filter)
      }
      return (judged, result)
    }
  }

  /// The p99 over every selected outcome (one group, whatever the sessions).
  private func overallP99(matching filter: QueryFilter, rows: inout [LatencyRow]) throws
    -> (Double?, Double?)
  {
    if rows.count == 1 { return (rows[0].points.first?.nanoseconds, rows[0].relativeError) }
    let sessions = try sessions(matching: filter)
    var pooled = try GroupTally.pooled(
      OutcomeScan(
        database: self, sessions: sessions, grouping: .session, filter: filter,
        collectDurations: true
      ).run())
    let row = LatencyRow(&pooled, percentiles: [99])
    return (row.points.first?.nanoseconds, row.relativeError)
  }
}
