/// One row of a baseline-against-candidate comparison: one handler (or control, event, flag,
/// variant) on both sides, its numbers, its tests and its verdict.
public struct DiffRow: Sendable {
  /// A row's verdict.
  public enum Verdict: String, CaseIterable, Sendable {
    /// Worse: significantly more errors or slower, by at least the minimum change (after
    /// Holm's adjustment), or failing in a way the baseline never did.
    case regressed
    /// Significantly fewer errors or faster, by at least the minimum change.
    case improved
    /// No change that is both significant and large enough.
    case unchanged
    /// Only the candidate has it: no baseline to judge against.
    case new
    /// Only the baseline has it: the candidate never ran it.
    case gone
    /// Too few invocations on a side for a verdict (with the smallest change the samples
    /// could have detected).
    case insufficient
  }

  /// What made a row `regressed`.
  public enum Cause: String, CaseIterable, Sendable {
    /// Significantly more errors, by at least the minimum change.
    case errorRate
    /// Significantly slower, by at least the minimum change.
    case latency
    /// A failure type the baseline never had.
    case newFailureType
  }

  /// One side's numbers.
  public struct Side: Sendable {
    /// Invocations that ran (ok + failed).
    public let n: Int
    /// Invocations that failed.
    public let failed: Int
    /// failed / n (`nil` when n is 0).
    public let errorRate: Double?
    /// The Wilson 95% interval of the error rate.
    public let interval: WilsonInterval?
    /// p50, p95 and p99 in nanoseconds (`nil` when n is 0), and whether each lacks samples.
    public let percentiles: [LatencyRow.Point]
    /// How ``percentiles`` are defined: ``Percentile/method`` (linear interpolation, exact) on
    /// raw rows, ``HistogramSample/percentileMethod(scale:)`` (by rank, within the stated
    /// bound) on summaries.
    public let percentileMethod: String
    /// The largest relative error of ``percentiles`` when read from summary histograms (their
    /// scale's, 1.083% at scale 5); `nil` when they are exact (raw rows) or absent.
    public let relativeError: Double?
    /// The sessions that ran it.
    public let sessions: Int
  }

  /// One test on a row.
  public struct Test: Sendable {
    /// The one-sided p-value for "candidate worse" (regression) or "candidate better".
    public let pValue: Double
    /// Holm's adjusted p-value across every regression test of the diff (`nil` for an
    /// improvement test).
    public let holm: Double?
    /// The Benjamini-Hochberg q-value across the tests of its direction.
    public let q: Double
    /// The method.
    public let method: String
  }

  /// The group.
  public let key: GroupKey
  /// Where the handler was registered in the candidate (else the baseline), when known.
  public let site: String?
  /// The baseline site of a handler matched across a moved registration.
  public let movedFrom: String?
  /// The baseline's numbers.
  public let baseline: Side
  /// The candidate's numbers.
  public let candidate: Side
  /// Candidate error rate − baseline error rate.
  public let errorChange: Double?
  /// The Hodges-Lehmann shift, candidate − baseline, nanoseconds.
  public let latencyShift: Double?
  /// The error-rate test (candidate more errors), when both sides ran it.
  public let errorTest: Test?
  /// The latency test (candidate slower), when both sides ran it.
  public let latencyTest: Test?
  /// The failure kinds the candidate has and the baseline never had, with their counts.
  public let newFailureKinds: [(kind: FailureKind, count: Int)]
  /// The smallest rise of the error rate, and the smallest latency shift (ns), these sample
  /// sizes detect at the options' power; given for `insufficient` and `unchanged` rows.
  public let detectable: (errorRate: Double?, latencyShift: Double?)
  /// The number of tests the comparison was stratified by (`nil`: pooled).
  public let strata: Int?
  /// The verdict.
  public let verdict: Verdict
  /// What made it `regressed` (empty for any other verdict).
  public let causes: [Cause]
  /// The smallest latency shift that counted for this row, nanoseconds: the larger of the
  /// absolute minimum and the relative one times the baseline's median.
  public let minimumShift: Double
  /// Why, in a few plain sentences (the change, its p-value, the rule that decided).
  public let reasons: [String]

  /// The reasons, then the move of a registration matched across one.
  public var explanation: [String] {
    reasons + (movedFrom.map { ["registration moved from \($0)"] } ?? [])
  }
}
