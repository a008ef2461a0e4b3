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
    /// The count, sum and sum of squares of ln(duration in ns) over the invocations that
    /// ran (a duration below 1 ns counts as 1 ns): what a comparison of geometric means needs.
    public let logDurations: (count: Int, sum: Double, sumOfSquares: Double)

    /// The moments of ln(duration), for a sequential latency comparison; `nil` below 2.
    public var logMoments: Moments? {
      Moments(
        count: logDurations.count, sum: logDurations.sum, sumOfSquares: logDurations.sumOfSquares)
    }

    /// The share of outcomes in sessions that lost data, 0 to 1 (0 with no outcomes).
    public var lostShare: Double { outcomes == 0 ? 0 : Double(lostOutcomes) / Double(outcomes) }

    /// Equal when every number is.
    public static func == (left: Arm, right: Arm) -> Bool {
      left.cohort == right.cohort && left.units == right.units && left.outcomes == right.outcomes
        && left.lostOutcomes == right.lostOutcomes
        && left.logDurations.count == right.logDurations.count
        && left.logDurations.sum == right.logDurations.sum
        && left.logDurations.sumOfSquares == right.logDurations.sumOfSquares
    }
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

  /// A share with nothing recorded at it.
  static func empty(at percent: RolloutPercentage) -> StageCohorts {
    let none = Arm(
      cohort: FlagReport.Cohort(nil), units: 0, outcomes: 0, lostOutcomes: 0,
      logDurations: (0, 0, 0))
    return StageCohorts(percent: percent, on: none, off: none, unassigned: 0)
  }
}
