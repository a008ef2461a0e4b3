extension QueryDatabase {
  /// Error rates of the selected sessions' outcomes, one row per group, largest n first.
  public func errorRates(matching filter: QueryFilter, by grouping: Grouping) throws
    -> [ErrorRateRow]
  {
    try errorRateAnswer(matching: filter, by: grouping).rows
  }

  /// Error rates of a resolved selection's outcomes, one row per group, largest n first.
  public func errorRates(in selection: OutcomeSelection) throws -> [ErrorRateRow] {
    try translating {
      var scan = OutcomeScan(
        database: self, sessions: selection.sessions, grouping: selection.grouping,
        filter: selection.filter, collectDurations: false)
      scan.plan = selection.plan
      return try scan.run().map(ErrorRateRow.init).sorted(by: Self.largestFirst)
    }
  }

  /// Latency percentiles of the selected sessions' outcomes, one row per group, largest n
  /// first.
  ///
  /// - Parameter percentiles: Each in 0…100, e.g. `[50, 95, 99]`.
  public func latency(
    matching filter: QueryFilter, by grouping: Grouping, percentiles: [Double]
  ) throws -> [LatencyRow] {
    try latencyAnswer(matching: filter, by: grouping, percentiles: percentiles).rows
  }

  /// Latency percentiles of a resolved selection's outcomes, one row per group, largest n
  /// first.
  ///
  /// - Parameter percentiles: Each in 0…100, e.g. `[50, 95, 99]`.
  public func latency(in selection: OutcomeSelection, percentiles: [Double]) throws
    -> [LatencyRow]
  {
    try translating {
      var scan = OutcomeScan(
        database: self, sessions: selection.sessions, grouping: selection.grouping,
        filter: selection.filter, collectDurations: true)
      scan.plan = selection.plan
      var groups = try scan.run()
      var rows: [LatencyRow] = []
      for index in groups.indices {
        rows.append(LatencyRow(&groups[index], percentiles: percentiles))
      }
      return rows.sorted { ($1.n, $0.key) < ($0.n, $1.key) }
    }
  }

  static func largestFirst(_ left: ErrorRateRow, _ right: ErrorRateRow) -> Bool {
    (right.n, left.key) < (left.n, right.key)
  }
}
