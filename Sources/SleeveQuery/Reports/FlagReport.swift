import Foundation
import SleeveCore
import SleeveStore

/// One feature flag as `sleeve flags` shows it: definition, state history, and what its gated
/// handlers did with the flag on and off.
public struct FlagReport: Equatable, Sendable {
  /// One recorded state change.
  public struct Change: Equatable, Sendable {
    /// `enabled`, `disabled`, `rolledBack` or `rollingOut`.
    public let state: String
    /// The rollback reason, if any.
    public let reason: String?
    /// Who made the change, if recorded.
    public let actor: String?
    /// When, Unix nanoseconds.
    public let atUnixNanoseconds: Int64
    /// The session it was recorded in, or `nil` for a change made from the command line.
    public let session: Int64?
    /// For `rollingOut`, the share served on.
    public var percent: RolloutPercentage? = nil

    /// The share served on after this change: the rollout's, 100% enabled, else 0%.
    public var servedPercent: RolloutPercentage {
      if let percent { return percent }
      return state == RecordCodes.FlagChangeState.enabled.name
        ? .everyone : RolloutPercentage(basisPoints: 0)!
    }

    /// `enabled`, `rollingOut 25%`, …: the state with its share.
    public var display: String { percent.map { "\(state) \($0)" } ?? state }
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
    /// How far a percentile can be from the exact `lower` value, relative to it, when the
    /// cohort was answered from summaries; `nil` when exact.
    public let relativeError: Double?
    /// The durations, for the tests that compare cohorts (empty when answered from summaries).
    let durations: [Int64]
    /// The durations as the merged summary histogram, when answered from summaries.
    let histogram: ExponentialHistogram?
    /// The durations, for charts: as recorded, or (from summaries) at most about
    /// ``chartSampleLimit`` bucket values in the histogram's proportions.
    public var durationsForCharts: [Int64] {
      guard let histogram else { return durations }
      return Self.chartSample(of: histogram)
    }

    /// The moments of ln(duration in ns) over the invocations that ran (a duration below 1 ns
    /// counts as 1 ns), for a sequential latency comparison: from the raw durations, or from
    /// the summary histogram's bucket values; `nil` below 2 invocations.
    public var logMoments: Moments? {
      func logarithm(_ duration: Double) -> Double { log(max(duration, 1)) }
      guard let histogram else {
        return Moments(values: durations.lazy.map { logarithm(Double($0)) })
      }
      var weighted: [(value: Double, count: Int)] = []
      if histogram.zeroCount > 0 {
        weighted.append((logarithm(1), Int(clamping: histogram.zeroCount)))
      }
      for (position, bucket) in histogram.counts.enumerated() where bucket > 0 {
        let value = ExponentialMapping.representative(
          of: histogram.offset + Int64(position), scale: histogram.scale)
        weighted.append((logarithm(value), Int(clamping: bucket)))
      }
      return Moments(weighted: weighted)
    }

    /// The most values a chart of a summarized cohort draws.
    public static let chartSampleLimit = 4_096

    init(_ tally: GroupTally?) {
      durations = tally?.durations ?? []
      histogram = tally?.histogram
      n = tally?.ran ?? 0
      failed = tally?.failed ?? 0
      errorRate = n == 0 ? nil : Double(failed) / Double(n)
      interval = WilsonInterval(successes: failed, trials: n)
      var scratch = tally ?? GroupTally(key: .unknown)
      let row = LatencyRow(&scratch, percentiles: [50, 95, 99])
      relativeError = row.relativeError
      p50Nanoseconds = row.points[0].nanoseconds
      p95Nanoseconds = row.points[1].nanoseconds
      p99Nanoseconds = row.points[2].nanoseconds
    }

    /// Each occupied bucket's value (its representative, clamped to the minimum and maximum,
    /// as ``ExponentialHistogram/lowerPercentile(_:)`` gives it), repeated in proportion to its count: at most ``chartSampleLimit`` values plus one
    /// per occupied bucket, so a bucket holding a single outlier still shows.
    static func chartSample(of histogram: ExponentialHistogram) -> [Int64] {
      guard histogram.count > 0, let low = histogram.minimum, let high = histogram.maximum
      else { return [] }
      let scale = Double(chartSampleLimit) / Double(histogram.count)
      var values: [Int64] = []
      func emit(_ count: UInt64, _ value: Double) {
        guard count > 0 else { return }
        let copies = max(1, Int((Double(count) * scale).rounded()))
        let clamped = Int64(min(max(value, Double(low)), Double(high)))
        values += repeatElement(clamped, count: min(copies, chartSampleLimit))
      }
      emit(histogram.zeroCount, 0)
      for (position, count) in histogram.counts.enumerated() {
        emit(
          count,
          ExponentialMapping.representative(
            of: histogram.offset + Int64(position), scale: histogram.scale))
      }
      return values
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
  /// How the flag's latest definition among the selected sessions rolls it out (unit, salt,
  /// stages), or `nil` when no selected session recorded one.
  public var rollout: RolloutPlan? = nil
  /// How much each check counts, from that definition (unnamed checks are critical).
  public var severities: [FlagCheck: CheckSeverity] = [:]
  /// The cohorts at each share a percentage rollout served, in rising share (raw rows only).
  public var stages: [StageCohorts] = []

  /// The latest change's share: what the flag serves now, as far as the selection knows.
  public var servedPercent: RolloutPercentage? { history.last?.servedPercent }

  /// The stage cohorts at the share the flag serves now, when it is rolling out.
  public var currentStage: StageCohorts? {
    guard let change = history.last, let percent = change.percent else { return nil }
    return stages.first { $0.percent == percent }
  }
}
