import Foundation
import SleeveCore
import Testing

@testable import SleeveQuery

/// Verdicts of flags rolling out by percentage, built from stage cohorts made to order: the
/// split and data guards, severities, sequential comparisons, and the step `--apply` takes.
@Suite("Rollout stage verdicts")
struct RolloutVerdictTests {
  static func arm(
    ok: Int, failed: Int, units: Int? = nil, lost: Int = 0, durations: [Int64]? = nil
  ) -> StageCohorts.Arm {
    var tally = GroupTally(key: "cohort")
    tally.counts[0] = ok
    tally.counts[1] = failed
    tally.durations = durations ?? (0..<(ok + failed)).map { Int64(1_000 + ($0 % 7) * 10) }
    return StageCohorts.Arm(
      cohort: FlagReport.Cohort(tally), units: units ?? ok + failed, outcomes: ok + failed,
      lostOutcomes: lost)
  }

  static let quarter = RolloutPercentage(basisPoints: 2_500)!

  static func flag(
    on: StageCohorts.Arm, off: StageCohorts.Arm, at percent: RolloutPercentage = quarter,
    maxErrorRate: Double? = 0.10, stages: [Double] = [1, 5, 25, 50, 100],
    severities: [FlagCheck: CheckSeverity] = [:]
  ) throws -> FlagReport {
    var report = FlagReport(
      key: "f", owner: "o", maxErrorRate: maxErrorRate, maxP99Nanoseconds: nil, minSamples: 50,
      history: [
        FlagReport.Change(
          state: "rollingOut", reason: nil, actor: nil, atUnixNanoseconds: 0, session: nil,
          percent: percent)
      ], on: FlagReport.Cohort(nil), off: FlagReport.Cohort(nil))
    report.rollout = try RolloutPlan(unit: .key("user"), stages: stages, minSamples: 100)
    report.severities = severities
    report.stages = [StageCohorts(percent: percent, on: on, off: off, unassigned: 0)]
    return report
  }

  @Test("a healthy stage with a matching split promotes, and --apply advances to the next stage")
  func healthyStageAdvances() throws {
    let report = try Self.flag(on: Self.arm(ok: 248, failed: 2), off: Self.arm(ok: 742, failed: 8))
    let verdict = FlagVerdict(report, options: .init(sequential: true))
    #expect(verdict.decision == .promote, "\(verdict.checks)")
    #expect(verdict.checks.first?.metric == .sampleRatio)
    #expect(verdict.checks.first?.verdict == .pass)
    let step = RolloutStep(report: report, verdict: verdict)
    #expect(step.action == .advance(to: RolloutPercentage(basisPoints: 5_000)!))
    let change = try #require(step.change(evidence: "e"))
    #expect(change.state == "rollingOut" && change.rolloutBasisPoints == 5_000)
    #expect(change.actor == "sleeve check")
  }

  @Test("the last stage below 100% completes the rollout: the flag is enabled")
  func lastStageCompletes() throws {
    let half = RolloutPercentage(basisPoints: 5_000)!
    let report = try Self.flag(
      on: Self.arm(ok: 495, failed: 5), off: Self.arm(ok: 495, failed: 5), at: half)
    let verdict = FlagVerdict(report, options: .init(sequential: true))
    #expect(verdict.decision == .promote, "\(verdict.checks)")
    #expect(RolloutStep(report: report, verdict: verdict).action == .complete)
    #expect(RolloutStep(report: report, verdict: verdict).change(evidence: "")?.state == "enabled")
  }

  @Test("a split far from the share holds, and its comparisons are reported but never decide")
  func sampleRatioMismatchHolds() throws {
    // 25% served, but 400 of 1,000 units on: p far below 0.001. The on cohort also fails
    // far more often, which alone would roll back on the comparison.
    let report = try Self.flag(
      on: Self.arm(ok: 360, failed: 40), off: Self.arm(ok: 597, failed: 3), maxErrorRate: nil)
    let verdict = FlagVerdict(report, options: .init(sequential: true))
    #expect(verdict.decision == .hold, "\(verdict.checks)")
    let split = try #require(verdict.checks.first { $0.metric == .sampleRatio })
    #expect(split.verdict == .insufficient)
    #expect(split.detail?.hasPrefix("mismatch") == true)
    let comparison = try #require(verdict.checks.first { $0.metric == .errorRateVersusOff })
    #expect(comparison.verdict == .advisory)
    #expect(
      comparison.detail?.hasPrefix("not counted: the split does not match the share (would breach)")
        == true)
    #expect(RolloutStep(report: report, verdict: verdict).change(evidence: "") == nil)
  }

  @Test("a threshold breach still rolls back through a broken split: it needs no comparison")
  func thresholdBreachRollsBackDespiteMismatch() throws {
    let report = try Self.flag(
      on: Self.arm(ok: 300, failed: 100), off: Self.arm(ok: 597, failed: 3), maxErrorRate: 0.05)
    let verdict = FlagVerdict(report, options: .init(sequential: true))
    #expect(verdict.decision == .rollback)
    #expect(RolloutStep(report: report, verdict: verdict).action == .rollBack)
  }

  @Test("a cohort that lost more than the stated share of its outcomes cannot promote")
  func dataLossHolds() throws {
    let report = try Self.flag(
      on: Self.arm(ok: 248, failed: 2, lost: 20), off: Self.arm(ok: 742, failed: 8))
    let held = FlagVerdict(report, options: .init(sequential: true))
    #expect(held.decision == .hold, "\(held.checks)")
    let loss = try #require(held.checks.first { $0.metric == .dataLoss })
    #expect(loss.verdict == .insufficient)
    #expect(loss.value == 0.08)
    #expect(loss.detail?.hasSuffix("cannot promote") == true)
    let allowed = FlagVerdict(report, options: .init(sequential: true, maximumLostShare: 0.10))
    #expect(allowed.decision == .promote, "\(allowed.checks)")
  }

  @Test("too few samples at the stage's own floor holds, and --min-samples overrides it")
  func stageFloorHolds() throws {
    // The stage needs 100 per cohort; the on cohort has 60.
    let report = try Self.flag(on: Self.arm(ok: 60, failed: 0), off: Self.arm(ok: 180, failed: 0))
    let held = FlagVerdict(report, options: .init(sequential: true))
    #expect(held.decision == .hold)
    #expect(held.checks.contains { $0.verdict == .insufficient && $0.minSamples == 100 })
    let overridden = FlagVerdict(report, options: .init(minSamples: 50, sequential: true))
    #expect(overridden.decision == .promote, "\(overridden.checks)")
  }

  @Test("an advisory check is reported with what it found and never decides; critical decides")
  func advisoryNeverDecides() throws {
    let failing = try Self.flag(
      on: Self.arm(ok: 200, failed: 50), off: Self.arm(ok: 742, failed: 8), maxErrorRate: nil,
      severities: [.errorRateVersusOff: .advisory])
    let advisory = FlagVerdict(failing, options: .init(sequential: true))
    #expect(advisory.decision == .promote, "\(advisory.checks)")
    let check = try #require(advisory.checks.first { $0.metric == .errorRateVersusOff })
    #expect(check.verdict == .advisory)
    #expect(check.detail?.hasPrefix("advisory (would breach)") == true)
    // The command line's severity wins over the definition's.
    let critical = FlagVerdict(
      failing, options: .init(sequential: true, severities: [.errorRateVersusOff: .critical]))
    #expect(critical.decision == .rollback)
  }

  @Test("sequential and fixed-horizon comparisons say which method judged them")
  func methodsAreNamed() throws {
    let report = try Self.flag(on: Self.arm(ok: 248, failed: 2), off: Self.arm(ok: 742, failed: 8))
    let sequential = FlagVerdict(report, options: .init(sequential: true))
    let fixed = FlagVerdict(report, options: .init(sequential: false))
    let sequentialError = try #require(sequential.checks.first { $0.metric == .errorRateVersusOff })
    #expect(
      sequentialError.method.hasPrefix("asymptotic confidence sequence (Waudby-Smith et al. 2024)"))
    #expect(sequential.checks.contains { $0.metric == .latencyRatioVersusOff })
    let fixedError = try #require(fixed.checks.first { $0.metric == .errorRateVersusOff })
    #expect(fixedError.method.hasPrefix("two-proportion z-test"))
    #expect(fixed.checks.contains { $0.metric == .latencyVersusOff })
  }

  @Test(
    "a share with nothing recorded yet holds, whatever the other shares say: no stage is skipped")
  func emptyStageHolds() throws {
    // Just advanced to 50%: only the 25% cohorts exist, and they are healthy.
    var report = try Self.flag(on: Self.arm(ok: 248, failed: 2), off: Self.arm(ok: 742, failed: 8))
    report = FlagReport(
      key: report.key, owner: report.owner, maxErrorRate: report.maxErrorRate,
      maxP99Nanoseconds: nil, minSamples: 50,
      history: report.history + [
        FlagReport.Change(
          state: "rollingOut", reason: nil, actor: nil, atUnixNanoseconds: 1, session: nil,
          percent: RolloutPercentage(basisPoints: 5_000)!)
      ], on: report.stages[0].on.cohort, off: report.stages[0].off.cohort)
    report.rollout = try RolloutPlan(unit: .key("user"), stages: [1, 5, 25, 50, 100])
    report.stages = [
      StageCohorts(
        percent: Self.quarter, on: Self.arm(ok: 248, failed: 2), off: Self.arm(ok: 742, failed: 8),
        unassigned: 0)
    ]
    let verdict = FlagVerdict(report, options: .init(sequential: true))
    #expect(verdict.decision == .hold, "\(verdict.checks)")
    #expect(verdict.checks.allSatisfy { $0.subject.hasPrefix("flag f at 50%") })
    #expect(verdict.notes.contains { $0.hasPrefix("Nothing recorded at 50% yet") })
    #expect(RolloutStep(report: report, verdict: verdict).change(evidence: "") == nil)
  }

  @Test("a flag rolling out with no stages promotes without a step to take")
  func noStagesStays() throws {
    var report = try Self.flag(on: Self.arm(ok: 248, failed: 2), off: Self.arm(ok: 742, failed: 8))
    report.rollout = RolloutPlan(unit: nil)
    let verdict = FlagVerdict(report, options: .init(sequential: true))
    #expect(verdict.decision == .promote)
    guard case .stay(let why) = RolloutStep(report: report, verdict: verdict).action else {
      Issue.record("expected stay")
      return
    }
    #expect(why.contains("has no stages"))
  }
}
