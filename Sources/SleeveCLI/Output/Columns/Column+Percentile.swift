import SleeveQuery

extension Column {
  /// A latency percentile in nanoseconds: the cell shows it for people (`1.20 ms`, `-` for
  /// `nil`), a value read from summary histograms followed by their bound (`1.20 ms ±1.083%`,
  /// ``AnswerPlan/bound(_:)``), and `*` when `insufficient`; over its raw value. JSON has it
  /// under `json` as a number. The one home of how every output shows a percentile's bound:
  /// `latency`, `flags` and the report's cohorts and handlers, `diff`'s sides.
  static func percentile(
    _ title: String, json: String?, _ value: @escaping @Sendable (Row) -> Double?,
    bound: @escaping @Sendable (Row) -> Double?,
    insufficient: @escaping @Sendable (Row) -> Bool = { _ in false }
  ) -> Column {
    Column(
      title, unit: .nanoseconds, layout: .numeric,
      members: json.map { key in [Member(key: key) { .number(value($0)) }] } ?? []
    ) { row in
      let nanoseconds = value(row)
      let shown = nanoseconds.flatMap { _ in bound(row) }.map { " " + AnswerPlan.bound($0) }
      return Table.Cell(
        Formatting.duration(nanoseconds) + (shown ?? "") + (insufficient(row) ? "*" : ""),
        raw: Formatting.raw(nanoseconds))
    }
  }
}
