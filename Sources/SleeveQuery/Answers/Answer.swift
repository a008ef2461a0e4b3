/// A query's answer as a value: what it read (``selection``), how its figures are computed
/// (``method``, the text outputs print), and its rows, in the order outputs show them.
public struct Answer<Row: Sendable>: Sendable {
  /// The sessions, plan and unmatched filters the answer was computed from.
  public let selection: OutcomeSelection
  /// How the rows' figures are computed, e.g. `failed / (ok + failed), Wilson score interval
  /// at 95%`.
  public let method: String
  /// The rows.
  public let rows: [Row]
}

extension QueryDatabase {
  /// Error rates per group of the sessions `filter` selects, as one answer read in one
  /// snapshot (largest n first).
  public func errorRateAnswer(matching filter: QueryFilter, by grouping: Grouping) throws
    -> Answer<ErrorRateRow>
  {
    try translating {
      let selection = try select(filter, by: grouping)
      return Answer(
        selection: selection, method: ErrorRateRow.method, rows: try errorRates(in: selection))
    }
  }

  /// Latency percentiles per group of the sessions `filter` selects, as one answer read in one
  /// snapshot (largest n first); its method is the plan's percentile method.
  ///
  /// - Parameter percentiles: Each in 0…100, e.g. `[50, 95, 99]`.
  public func latencyAnswer(
    matching filter: QueryFilter, by grouping: Grouping, percentiles: [Double]
  ) throws -> Answer<LatencyRow> {
    try translating {
      let selection = try select(filter, by: grouping)
      return Answer(
        selection: selection, method: selection.plan.percentileMethod,
        rows: try latency(in: selection, percentiles: percentiles))
    }
  }
}
