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

  /// The overall decision, as `check` decides it over the same selection:
  /// `RolloutDecision(_:)` over every flag's checks (`nothingToCheck` when there is none).
  public var decision: RolloutDecision { RolloutDecision(flags.flatMap(\.verdict.checks)) }
}

extension QueryDatabase {
  /// The rollout report of the selected sessions.
  public func rolloutReport(matching filter: QueryFilter, minSamples: Int? = nil) throws
    -> RolloutReport
  {
    try translating {
      let sessions = try sessions(matching: filter)
      let plan = try answerPlan(for: sessions, method: filter.method)
      let flags = try flags(matching: filter).map {
        RolloutReport.FlagSection(report: $0, verdict: FlagVerdict($0, minSamples: minSamples))
      }
      let errors = try errorRates(matching: filter, by: .handler)
      var latency: [String: LatencyRow] = [:]
      for row in try self.latency(matching: filter, by: .handler, percentiles: [50, 95, 99]) {
        latency[row.key] = row
      }
      let handlers = errors.compactMap { row in
        latency[row.key].map { RolloutReport.HandlerRow(errors: row, latency: $0) }
      }
      return RolloutReport(sessions: sessions, flags: flags, handlers: handlers, plan: plan)
    }
  }
}
