/// What `sleeve changes` follows per commit: a latency percentile of the commit's pooled
/// invocations, or their error rate.
public enum ChangeMetric: String, CaseIterable, Sendable {
  /// The median of the commit's histogram (or exact durations).
  case p50
  /// The 95th percentile.
  case p95
  /// The 99th percentile (near the largest value for a commit with about 100 invocations or
  /// fewer).
  case p99
  /// Failed / ran over the commit's invocations, a proportion.
  case errorRate = "error-rate"

  /// The percentile, for a latency metric.
  public var percentile: Double? {
    switch self {
    case .p50: 50
    case .p95: 95
    case .p99: 99
    case .errorRate: nil
    }
  }

  /// How a change of this metric is found and tested, in a few words (each output's rows).
  public var method: String {
    self == .errorRate
      ? "E-divisive means; Student's t on per-commit rates and Fisher's exact on the counts"
      : "E-divisive means; Student's t on per-commit \(rawValue)"
  }

  /// How a change of this metric is sized: relative for latency, in points for a rate.
  public var magnitude: ChangePointSearch.Magnitude {
    self == .errorRate ? .absolute : .relative
  }
}

/// The options of a change-point search over a history.
public struct ChangeOptions: Equatable, Sendable {
  /// The metrics followed (default p50 and error rate).
  public var metrics: [ChangeMetric] = [.p50, .errorRate]
  /// The largest p-value a change may have (default 0.001, Apache Otava's).
  public var maxP = 0.001
  /// The smallest latency change that counts, relative (default 0.05, 5%).
  public var minLatencyChange = 0.05
  /// The smallest error-rate change that counts, in rate (default 0.01, one point).
  public var minErrorChange = 0.01
  /// The fewest commits each level beside a change must span (default 3): a lone slow commit
  /// is an outlier, not a change.
  public var minCommits = 3
  /// Commits per window of the split step (default 50, Otava's).
  public var window = 50

  /// The defaults.
  public init() {}

  /// The search for `metric`, given the relative error of the percentiles (summaries' ±1.083%,
  /// `nil` when exact): a latency change must also exceed what two values within that error of
  /// one true value can differ by, (1 + e)/(1 − e) − 1 (2.19% at ±1.083%).
  public func search(for metric: ChangeMetric, relativeError: Double?) -> ChangePointSearch {
    var options = ChangePointSearch.Options()
    options.window = window
    options.maxP = maxP
    options.minimumSegment = minCommits
    options.magnitude = metric.magnitude
    if metric == .errorRate {
      options.minMagnitude = minErrorChange
    } else {
      options.minMagnitude = max(minLatencyChange, Self.histogramFloor(relativeError ?? 0))
    }
    return ChangePointSearch(options: options)
  }

  /// The most two values within `error` (relative) of one true value can differ by:
  /// (1 + e)/(1 − e) − 1, 2.19% at the summaries' ±1.083%.
  static func histogramFloor(_ error: Double) -> Double { (1 + error) / (1 - error) - 1 }

  /// The method, as outputs print it beside the results.
  public func method(relativeError: Double?) -> String {
    var rule = "a latency change counts from \(NumberText.percent(minLatencyChange))"
    if let error = relativeError {
      let floor = Self.histogramFloor(error)
      rule += " (never under \(NumberText.percent(floor)), what two summary values can differ by)"
    }
    rule +=
      ", an error-rate change from "
      + "\(NumberText.fixed(minErrorChange * 100, digits: 2)) points"
    return "E-divisive means (Matteson and James 2014) over per-commit values in windows of "
      + "\(window) commits; each change tested by Student's t-test with pooled variance "
      + "between the levels beside it, kept at p < \(maxP) (Hunter's merge, as Apache Otava "
      + "0.8.0); \(rule); each level at least \(minCommits) commit\(minCommits == 1 ? "" : "s"). Error rates are the "
      + "per-commit proportions failed/ran, tested the same way and by Fisher's exact test on "
      + "the failed and ran counts of each level (the larger p-value decides)."
  }
}
