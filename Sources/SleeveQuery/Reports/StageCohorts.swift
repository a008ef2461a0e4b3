import SleeveCore

/// A flag's outcomes at one served share of a percentage rollout: the two cohorts that ran
/// at the same time, how many units each held, how many outcomes were outside the
/// randomization, and how much of each cohort sat in sessions that lost data.
public struct StageCohorts: Equatable, Sendable {
  /// One cohort's numbers beyond ``FlagReport/Cohort``.
  public struct Arm: Equatable, Sendable {
    /// The invocations that ran, with their error rate and percentiles.
    public let cohort: FlagReport.Cohort
    /// Distinct units served this variant (fires, sessions or app keys, by their assignment).
    public let units: Int
    /// Every outcome of the cohort, run or not (skipped without a fallback included).
    public let outcomes: Int
    /// Outcomes recorded in sessions that lost data: unterminated, with dropped events, or
    /// with failed writes.
    public let lostOutcomes: Int
    /// The moments of ln(duration), for a sequential latency comparison (the cohort's own,
    /// ``FlagReport/Cohort/logMoments``); `nil` below 2.
    public var logMoments: Moments? { cohort.logMoments }

    /// The share of outcomes in sessions that lost data, 0 to 1 (0 with no outcomes).
    public var lostShare: Double { outcomes == 0 ? 0 : Double(lostOutcomes) / Double(outcomes) }
  }

  /// The share served on.
  public let percent: RolloutPercentage
  /// The outcomes served the primary.
  public let on: Arm
  /// The outcomes served the fallback.
  public let off: Arm
  /// Outcomes whose unit was unknown (served off outside the randomization): no cohort
  /// counts them.
  public let unassigned: Int

  /// The split of units against the share (``SampleRatioTest``); `nil` for counts no split
  /// can produce.
  public var sampleRatio: SampleRatioTest? {
    SampleRatioTest(unitsOn: on.units, unitsOff: off.units, shareOn: percent)
  }

  /// A share with nothing recorded at it.
  static func empty(at percent: RolloutPercentage) -> StageCohorts {
    let none = Arm(cohort: FlagReport.Cohort(nil), units: 0, outcomes: 0, lostOutcomes: 0)
    return StageCohorts(percent: percent, on: none, off: none, unassigned: 0)
  }
}
