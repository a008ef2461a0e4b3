/// The gate as one answer (``QueryDatabase/gateAnswer(in:thresholds:options:against:)``):
/// what it read, every flag it judged, the result `check` exits by and `report` states, and
/// what it judged against with the plan that comparison read both sides by.
public struct GateAnswer: Sendable {
  /// The sessions, plan and unmatched filters of the gated selection.
  public let selection: OutcomeSelection
  /// Every flag's report and verdict, those without a check too (a report still shows them).
  public let judged: [(report: FlagReport, verdict: FlagVerdict)]
  /// The checks and the decision: the flags with a check, the thresholds' checks over every
  /// outcome and the checks against the baseline.
  public let result: GateResult
  /// What the gate judged against, if anything.
  public let baseline: BaselineRequest?
  /// How the comparison with the baseline read both sides (`nil` without a baseline).
  public let comparedPlan: AnswerPlan?
}

extension OutcomeSelection {
  /// The same sessions and plan grouped by `grouping` instead (the gate's by-session checks
  /// over a by-handler selection). Only `--by event` decides the plan differently (raw rows,
  /// which summaries cannot answer), so `grouping` must not be `.event`.
  func regrouped(by grouping: Grouping) -> OutcomeSelection {
    OutcomeSelection(
      filter: filter, grouping: grouping, sessions: sessions, plan: plan,
      unmatchedFilters: unmatchedFilters)
  }
}
