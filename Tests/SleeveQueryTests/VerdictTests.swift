import Testing

@testable import SleeveQuery

/// Verdicts built from cohorts made to order.
@Suite("Rollout verdicts")
struct VerdictTests {
  static func cohort(ok: Int, failed: Int, durations: [Int64]? = nil) -> FlagReport.Cohort {
    var tally = GroupTally(key: "cohort")
    tally.counts[0] = ok
    tally.counts[1] = failed
    tally.durations = durations ?? Array(repeating: 1_000, count: ok + failed)
    return FlagReport.Cohort(tally)
  }

  static let empty = FlagReport.Cohort(nil)

  static func flag(
    on: FlagReport.Cohort, off: FlagReport.Cohort = empty, maxErrorRate: Double? = nil,
    maxP99: Int64? = nil, minSamples: Int? = 50
  ) -> FlagReport {
    FlagReport(
      key: "f", owner: "o", maxErrorRate: maxErrorRate, maxP99Nanoseconds: maxP99,
      minSamples: minSamples, history: [], on: on, off: off)
  }

  @Test("an error rate under its threshold with enough samples and no flag-off cohort: promote")
  func thresholdPassPromotes() {
    let verdict = FlagVerdict(Self.flag(on: Self.cohort(ok: 99, failed: 1), maxErrorRate: 0.02))
    #expect(verdict.decision == .promote)
    #expect(verdict.checks.map(\.verdict) == [.pass])
    #expect(verdict.notes == ["No flag-off cohort: judged on its thresholds alone."])
  }

  @Test("an error rate over its threshold with enough samples: rollback")
  func thresholdBreachRollsBack() {
    let verdict = FlagVerdict(Self.flag(on: Self.cohort(ok: 90, failed: 10), maxErrorRate: 0.02))
    #expect(verdict.decision == .rollback)
  }

  @Test("too few samples hold, whatever the value")
  func fewSamplesHold() {
    let verdict = FlagVerdict(Self.flag(on: Self.cohort(ok: 10, failed: 30), maxErrorRate: 0.02))
    #expect(verdict.decision == .hold)
    #expect(verdict.checks.first?.verdict == .insufficient)
  }

  @Test("a p99 check needs 100 samples; over its threshold with enough: rollback")
  func p99Checks() {
    let slow = (0..<100).map { Int64($0 < 95 ? 1_000 : 9_000_000) }
    let held = FlagVerdict(
      Self.flag(
        on: Self.cohort(ok: 99, failed: 0, durations: Array(slow.prefix(99))), maxP99: 5_000_000))
    #expect(held.decision == .hold)
    let breached = FlagVerdict(
      Self.flag(on: Self.cohort(ok: 100, failed: 0, durations: slow), maxP99: 5_000_000))
    #expect(breached.decision == .rollback)
    #expect(breached.checks.first?.metric == .p99)
  }

  @Test("flag-on significantly worse than flag-off on errors: rollback, with the p-value")
  func errorComparisonRollsBack() throws {
    let verdict = FlagVerdict(
      Self.flag(on: Self.cohort(ok: 188, failed: 12), off: Self.cohort(ok: 196, failed: 4)))
    let comparison = try #require(verdict.checks.first { $0.metric == .errorRateVersusOff })
    #expect(abs((comparison.pValue ?? 1) - 0.02061341666858185) < 1e-12)
    #expect(comparison.verdict == .breach)
    #expect(verdict.decision == .rollback)
  }

  @Test("flag-on worse on errors but not significantly: promote")
  func errorComparisonNotSignificant() {
    let verdict = FlagVerdict(
      Self.flag(on: Self.cohort(ok: 970, failed: 30), off: Self.cohort(ok: 980, failed: 20)))
    #expect(verdict.checks.first { $0.metric == .errorRateVersusOff }?.verdict == .pass)
    #expect(verdict.decision == .promote)
  }

  @Test(
    "flag-on significantly and materially slower: rollback; significantly but negligibly: promote")
  func latencyComparison() {
    let off = (0..<200).map { Int64(1_000 + $0) }
    let muchSlower = off.map { $0 + 500 }
    let barelySlower = off.map { $0 + 20 }
    let slow = FlagVerdict(
      Self.flag(
        on: Self.cohort(ok: 200, failed: 0, durations: muchSlower),
        off: Self.cohort(ok: 200, failed: 0, durations: off)))
    let latency = slow.checks.first { $0.metric == .latencyVersusOff }
    #expect(latency?.verdict == .breach)
    #expect(latency?.value == 500)
    #expect(slow.decision == .rollback)
    let negligible = FlagVerdict(
      Self.flag(
        on: Self.cohort(ok: 200, failed: 0, durations: barelySlower),
        off: Self.cohort(ok: 200, failed: 0, durations: off)))
    #expect(negligible.checks.first { $0.metric == .latencyVersusOff }?.verdict == .pass)
  }

  @Test("combined: a breach with enough samples wins over a hold; a hold wins over passes")
  func combinedPrecedence() {
    let breachAndHold = FlagVerdict(
      Self.flag(
        on: Self.cohort(ok: 60, failed: 40), off: Self.cohort(ok: 10, failed: 0),
        maxErrorRate: 0.05))
    #expect(breachAndHold.checks.map(\.verdict).contains(.insufficient))
    #expect(breachAndHold.decision == .rollback)
    let passAndHold = FlagVerdict(
      Self.flag(
        on: Self.cohort(ok: 100, failed: 0), off: Self.cohort(ok: 10, failed: 0),
        maxErrorRate: 0.05))
    #expect(passAndHold.decision == .hold)
  }

  @Test("no thresholds and no flag-off cohort: nothing to check, and the verdict says why")
  func nothingToJudge() {
    let verdict = FlagVerdict(Self.flag(on: Self.cohort(ok: 100, failed: 0)))
    #expect(verdict.checks.isEmpty)
    #expect(verdict.decision == .nothingToCheck)
    #expect(verdict.notes.contains("No thresholds and no flag-off cohort: nothing to judge."))
  }
}
