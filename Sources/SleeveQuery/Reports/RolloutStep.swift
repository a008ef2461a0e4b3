import SleeveCore
import SleeveStore

/// What `sleeve check --apply` does to one flag, from its verdict: roll it back on a breach,
/// advance a staged rollout that passed its stage to the next stage (or, past its last stage,
/// enable it), and otherwise leave it as it is (a flag already rolled back is not rolled back
/// again: a step records a change, never a repeat). Each step is recorded with the evidence as the
/// reason and `sleeve check` as the actor.
public struct RolloutStep: Equatable, Sendable {
  /// What happens to the flag.
  public enum Action: Equatable, Sendable {
    /// A critical check breached: the flag is rolled back.
    case rollBack
    /// The stage passed: the flag now serves the next stage's share.
    case advance(to: RolloutPercentage)
    /// The last stage passed: the flag is enabled for everyone.
    case complete
    /// Nothing is recorded; `why` says why (a hold, or a promote with no stage to advance).
    case stay(why: String)
  }

  /// Who records the steps.
  public static let actor = "sleeve check"

  /// The flag.
  public let flag: String
  /// What happens.
  public let action: Action
  /// The evidence: the checks that decided (breaches for a rollback, passes for a promote,
  /// what lacks samples or holds for a hold).
  public let evidence: [GateCheck]

  /// The step for `report` judged `verdict`.
  public init(report: FlagReport, verdict: FlagVerdict) {
    flag = report.key
    let served = report.history.last?.percent
    switch verdict.decision {
    case .rollback:
      evidence = verdict.checks.filter { $0.verdict == .breach }
      // A step records a change of state, never the same state again: a flag already rolled
      // back stays so (the breach that rolled it back is still in its cohorts).
      guard report.state != RecordCodes.FlagChangeState.rolledBack.name else {
        action = .stay(why: "rollback: already rolled back")
        return
      }
      action = .rollBack
    case .promote:
      evidence = verdict.checks.filter { $0.verdict == .pass }
      guard let served else {
        action = .stay(why: "promote: the flag is not rolling out")
        return
      }
      guard let plan = report.rollout, !plan.stages.isEmpty else {
        action = .stay(
          why: "promote at \(served): the flag has no stages; raise it with sleeve rollout")
        return
      }
      if let next = plan.stage(after: served), next.percent < .everyone {
        action = .advance(to: next.percent)
      } else {
        action = .complete
      }
    case .hold:
      action = .stay(why: "hold")
      evidence = verdict.checks.filter { $0.verdict == .insufficient }
    case .nothingToCheck:
      action = .stay(why: "nothing to check")
      evidence = []
    }
  }

  /// The change to record, its reason the step and `evidence` (the checks as text), or `nil`
  /// when the flag stays as it is.
  public func change(evidence: String) -> FlagLedger.Change? {
    switch action {
    case .rollBack:
      FlagLedger.Change(
        key: flag, state: RecordCodes.FlagChangeState.rolledBack.name,
        reason: "sleeve check: " + evidence, actor: Self.actor)
    case .advance(let percent):
      FlagLedger.Change(
        key: flag, state: RecordCodes.FlagChangeState.rollingOut.name,
        reason: "sleeve check: stage passed, now \(percent): " + evidence, actor: Self.actor,
        rolloutBasisPoints: percent.basisPoints)
    case .complete:
      FlagLedger.Change(
        key: flag, state: RecordCodes.FlagChangeState.enabled.name,
        reason: "sleeve check: last stage passed: " + evidence,
        actor: Self.actor)
    case .stay:
      nil
    }
  }
}
