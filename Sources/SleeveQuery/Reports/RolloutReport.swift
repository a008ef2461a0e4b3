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
      try rolloutReport(
        in: select(filter, by: .handler), minSamples: minSamples, against: baseline)
    }
  }

  /// The rollout report of a resolved selection (by handler): its sessions and plan are the
  /// gate's (``gateAnswer(in:thresholds:options:against:)``, called once) and every
  /// handler's.
  public func rolloutReport(
    in selection: OutcomeSelection, minSamples: Int? = nil, against baseline: BaselineRequest?
  ) throws -> RolloutReport {
    try translating {
      let gate = try gateAnswer(
        in: selection, thresholds: GateThresholds(minSamples: minSamples),
        options: FlagVerdict.Options(), against: baseline)
      let flags = gate.judged.map {
        RolloutReport.FlagSection(report: $0.report, verdict: $0.verdict)
      }
      let byHandler = selection.regrouped(by: .handler)
      let errors = try errorRates(in: byHandler)
      var latency: [String: LatencyRow] = [:]
      for row in try self.latency(in: byHandler, percentiles: [50, 95, 99]) {
        latency[row.key] = row
      }
      let handlers = errors.compactMap { row in
        latency[row.key].map { RolloutReport.HandlerRow(errors: row, latency: $0) }
      }
      return RolloutReport(
        sessions: selection.sessions, flags: flags, handlers: handlers, plan: selection.plan,
        gate: gate.result, baseline: baseline)
    }
  }
}
