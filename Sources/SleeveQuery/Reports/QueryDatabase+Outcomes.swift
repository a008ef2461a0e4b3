extension QueryDatabase {
  /// Error rates of the selected sessions' outcomes, one row per group, largest n first.
  public func errorRates(matching filter: QueryFilter, by grouping: Grouping) throws
    -> [ErrorRateRow]
  {
    try translating {
      let sessions = try sessions(matching: filter)
      let groups = try OutcomeScan(
        database: self, sessions: sessions, grouping: grouping, filter: filter,
        collectDurations: false
      ).run()
      return groups.map(ErrorRateRow.init).sorted(by: Self.largestFirst)
    }
  }

  /// Latency percentiles of the selected sessions' outcomes, one row per group, largest n
  /// first.
  ///
  /// - Parameter percentiles: Each in 0…100, e.g. `[50, 95, 99]`.
  public func latency(
    matching filter: QueryFilter, by grouping: Grouping, percentiles: [Double]
  ) throws -> [LatencyRow] {
    try translating {
      let sessions = try sessions(matching: filter)
      var groups = try OutcomeScan(
        database: self, sessions: sessions, grouping: grouping, filter: filter,
        collectDurations: true
      ).run()
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
