/// Everything `sleeve report` shows for the selected sessions: the sessions and their
/// metadata, each flag with its verdict, history and cohorts, and each handler's error rate
/// and latency.
public struct RolloutReport: Sendable {
  /// One handler's row: error rate and percentiles.
  public struct HandlerRow: Sendable {
    /// Its error rate and counts.
    public let errors: ErrorRateRow
    /// Its latency (p50, p95, p99).
    public let latency: LatencyRow
  }

  /// One flag with its verdict.
  public struct FlagSection: Sendable {
    /// Definition, history and cohorts.
    public let report: FlagReport
    /// promote, hold or rollback, with the checks.
    public let verdict: FlagVerdict
  }

  /// The sessions, oldest first.
  public let sessions: [SessionSummary]
  /// Each flag, by key.
  public let flags: [FlagSection]
  /// Each handler, most invocations first.
  public let handlers: [HandlerRow]
  /// Raw rows or summaries: what every figure of the report was read from.
  public let plan: AnswerPlan
  /// The gate over the same selection, as `check` judges it given the same baseline: every
  /// flag's checks and, with a baseline, the checks against it.
  public let gate: GateResult
  /// What the gate judged against, if anything.
  public let baseline: BaselineRequest?

  /// The overall decision: the gate's (``QueryDatabase/gate(matching:thresholds:options:against:)``),
  /// the one `check` gives for the same selection and baseline (`nothingToCheck` when there
  /// is no check).
  public var decision: RolloutDecision { gate.decision }
}

extension QueryDatabase {
  /// The rollout report of the selected sessions, judged by the gate as `check` judges them
  /// (with `baseline`, against it too).
  public func rolloutReport(
    matching filter: QueryFilter, minSamples: Int? = nil, against baseline: BaselineRequest? = nil
  ) throws -> RolloutReport {
    try translating {
      let sessions = try sessions(matching: filter)
      let plan = try answerPlan(for: sessions, method: filter.method)
      let gate = try judge(
        matching: filter, thresholds: GateThresholds(minSamples: minSamples),
        options: FlagVerdict.Options(), against: baseline)
      let flags = gate.judged.map {
        RolloutReport.FlagSection(report: $0.report, verdict: $0.verdict)
      }
      let errors = try errorRates(matching: filter, by: .handler)
      var latency: [String: LatencyRow] = [:]
      for row in try self.latency(matching: filter, by: .handler, percentiles: [50, 95, 99]) {
        latency[row.key] = row
      }
      let handlers = errors.compactMap { row in
        latency[row.key].map { RolloutReport.HandlerRow(errors: row, latency: $0) }
      }
      return RolloutReport(
        sessions: sessions, flags: flags, handlers: handlers, plan: plan, gate: gate.result,
        baseline: baseline)
    }
  }
}
