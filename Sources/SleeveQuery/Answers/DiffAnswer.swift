/// A comparison as one answer, read in one snapshot: the plan both sides are read by (one
/// plan for the two, so raw rows are never set against summaries), the judged rows, and each
/// side's rollout cohorts per served share.
public struct DiffAnswer: Sendable {
  /// How both sides are read.
  public let plan: AnswerPlan
  /// The judged rows, both sides' sessions and the options they were judged by.
  public let diff: BaselineDiff
  /// Each side's rollout cohorts per served share, by flag key (baseline, then candidate).
  public let rollouts: [(side: BaselineDiff.Side, flags: [String: [StageCohorts]])]
  /// One sentence per `--control`, `--handler` or `--flag` filter that matched nothing
  /// (``QueryDatabase/unmatchedFilters(_:)``).
  public let unmatchedFilters: [String]
  /// The change points inside the baseline, newest first (handler grouping; p50 and error
  /// rate with ``ChangeOptions``' defaults): where main itself moved between its runs.
  public let baselineChanges: [HandlerChange]

  /// Whether any side has a served share to show.
  public var showsStages: Bool { rollouts.contains { !$0.flags.isEmpty } }
}

extension QueryDatabase {
  /// Judges `candidate` against `baseline` per group, with the plan and the rollout cohorts
  /// the comparison shows, in one snapshot.
  ///
  /// - Parameter filter: Its handler filters apply to both sides; its method picks the plan.
  ///   `baselines`: per handler, its baseline sessions (`since=change`), `nil` for all.
  public func diffAnswer(
    baseline: [SessionSummary], candidate: [SessionSummary], filter: QueryFilter,
    by grouping: Grouping, options: DiffOptions, baselines: HandlerBaselines? = nil
  ) throws -> DiffAnswer {
    try translating {
      let unmatched = try unmatchedFilters(filter)
      let plan = try answerPlan(
        for: baseline + candidate, method: filter.method, grouping: grouping)
      let diff = try diffs(
        baseline: baseline, candidate: candidate, filter: filter, by: grouping,
        options: options, eachAlone: false, plan: plan, baselines: baselines
      ).together
      // The search `since=change` made already, or the same search over the baseline.
      let baselineChanges =
        grouping != .handler
        ? []
        : try baselines?.changes.changes
          ?? changes(of: baseline, filter: filter, options: ChangeOptions()).changes
      return DiffAnswer(
        plan: plan, diff: diff,
        rollouts: [
          (.baseline, try rolloutStages(in: baseline, filter: filter)),
          (.candidate, try rolloutStages(in: candidate, filter: filter)),
        ], unmatchedFilters: unmatched, baselineChanges: baselineChanges)
    }
  }
}
