import SleeveQuery

/// What `sleeve export` wrote, counted by what the format holds: handler invocations always,
/// and with them the fires (trace, NDJSON and CSV exports, which read raw rows) or the metric
/// data points (`otlp-metrics-json`, which reads summaries and holds no fire at all). Counts
/// saturate at `Int.max` instead of trapping (a summary's counts are unsigned 64-bit).
///
/// ```swift
/// var tally = ExportTally(format: .otlpMetricsJSON)
/// tally.add(summaries, points: request.items)
/// tally.description  // "24 handler invocations as 9 metric data points"
/// ```
struct ExportTally: Equatable, Sendable, CustomStringConvertible {
  /// The format exported.
  let format: ExportCommand.Format
  /// Handler invocations (outcomes) exported.
  private(set) var outcomes = 0
  /// Fires exported (raw-row formats).
  private(set) var fires = 0
  /// Metric data points exported (`otlp-metrics-json`).
  private(set) var points = 0

  /// An empty tally of an export in `format`.
  init(format: ExportCommand.Format) { self.format = format }

  /// Counts a fire group of a raw-row export: its fire (when its row exists) and outcomes.
  mutating func add(_ group: ExportFireGroup) {
    fires = Self.clamped(fires, group.fire == nil ? 0 : 1)
    outcomes = Self.clamped(outcomes, UInt64(group.outcomes.count))
  }

  /// Counts a session's summaries, exported as `points` metric data points.
  mutating func add(_ summaries: [HandlerSummary], points: Int) {
    for item in summaries {
      for count in item.summary.statusCounts { outcomes = Self.clamped(outcomes, count) }
    }
    self.points = Self.clamped(self.points, UInt64(max(points, 0)))
  }

  /// `29 handler invocations in 12 fires`, or `24 handler invocations as 9 metric data
  /// points` for metrics (which hold no fire).
  var description: String {
    let invocations = "\(outcomes) handler invocations"
    guard format != .otlpMetricsJSON else {
      return invocations + " as \(points) metric data points"
    }
    return invocations + " in \(fires) fires"
  }

  private static func clamped(_ total: Int, _ more: UInt64) -> Int {
    let (sum, overflow) = total.addingReportingOverflow(Int(clamping: more))
    return overflow ? Int.max : sum
  }
}
