import SleeveQuery

extension Column {
  /// A Wilson 95% interval: the cell shows `[lower%, upper%]` (`-` for `nil`) over the raw
  /// `lower;upper`, JSON the bounds as `intervalLower` and `intervalUpper`. The one home of how
  /// every output shows an error rate's interval.
  static func interval(
    _ title: String = "95% interval", _ value: @escaping @Sendable (Row) -> WilsonInterval?
  ) -> Column {
    Column(
      title, unit: .proportion, layout: .text,
      members: [
        Member(key: "intervalLower") { .number(value($0)?.lower) },
        Member(key: "intervalUpper") { .number(value($0)?.upper) },
      ]
    ) { row in
      guard let interval = value(row) else { return Table.Cell("-", raw: "") }
      return Table.Cell(
        "[\(Formatting.percent(interval.lower)), \(Formatting.percent(interval.upper))]",
        raw: "\(interval.lower);\(interval.upper)")
    }
  }
}
