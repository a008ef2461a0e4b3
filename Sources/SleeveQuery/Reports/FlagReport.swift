/// One feature flag as `sleeve flags` shows it: definition, state history, and what its gated
/// handlers did with the flag on and off.
public struct FlagReport: Equatable, Sendable {
  /// One recorded state change.
  public struct Change: Equatable, Sendable {
    /// `enabled`, `disabled` or `rolledBack`.
    public let state: String
    /// The rollback reason, if any.
    public let reason: String?
    /// Who made the change, if recorded.
    public let actor: String?
    /// When, Unix nanoseconds.
    public let atUnixNanoseconds: Int64
    /// The session it was recorded in, or `nil` for a change made from the command line.
    public let session: Int64?
  }

  /// The outcomes of the gated handlers in one cohort.
  public struct Cohort: Equatable, Sendable {
    /// Invocations that ran (ok + failed).
    public let n: Int
    /// Invocations that threw.
    public let failed: Int
    /// failed / n, or `nil` when n is 0.
    public let errorRate: Double?
    /// The Wilson 95% interval of the error rate.
    public let interval: WilsonInterval?
    /// The 50th, 95th and 99th percentile durations, nanoseconds (`nil` when n is 0).
    public let p50Nanoseconds: Double?
    /// The 95th percentile.
    public let p95Nanoseconds: Double?
    /// The 99th percentile.
    public let p99Nanoseconds: Double?
    /// Whether n is too small for a p99 (n < 100).
    public var p99Insufficient: Bool { Percentile.isInsufficient(count: n, point: 99) }
    /// The durations, for the tests that compare cohorts.
    let durations: [Int64]
    /// The durations, for charts.
    public var durationsForCharts: [Int64] { durations }

    init(_ tally: GroupTally?) {
      durations = tally?.durations ?? []
      n = tally?.ran ?? 0
      failed = tally?.failed ?? 0
      errorRate = n == 0 ? nil : Double(failed) / Double(n)
      interval = WilsonInterval(successes: failed, trials: n)
      var scratch = durations
      let points = Percentile.of(&scratch, at: [50, 95, 99])
      p50Nanoseconds = points?[0]
      p95Nanoseconds = points?[1]
      p99Nanoseconds = points?[2]
    }
  }

  /// The flag's key.
  public let key: String
  /// The owner, from the most recent definition among the selected sessions.
  public let owner: String?
  /// The highest acceptable error rate, if defined.
  public let maxErrorRate: Double?
  /// The highest acceptable p99, nanoseconds, if defined.
  public let maxP99Nanoseconds: Int64?
  /// The fewest invocations a cohort needs, if defined.
  public let minSamples: Int?
  /// Every recorded change, oldest first.
  public let history: [Change]
  /// The state after the last change (`unknown` without one).
  public var state: String { history.last?.state ?? "unknown" }
  /// Outcomes served the primary (flag on).
  public let on: Cohort
  /// Outcomes served the fallback (flag off).
  public let off: Cohort
}
