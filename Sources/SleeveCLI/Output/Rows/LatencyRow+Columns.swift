import SleeveQuery

extension LatencyRow {
  /// The columns of `sleeve latency`, keyed by `grouping`'s name: n, min, mean, one column per
  /// requested percentile (with the histograms' bound beside a value from summaries, and `*`
  /// when insufficient), max; JSON nests the percentiles in one list.
  static func columns(by grouping: Grouping, percentiles: [Double]) -> Columns<LatencyRow> {
    let points: [Column<LatencyRow>] = percentiles.indices.map { index in
      .percentile(
        Formatting.percentileLabel(percentiles[index]), json: nil,
        { $0.points[index].nanoseconds }, bound: { $0.relativeError },
        insufficient: { $0.points[index].insufficient })
    }
    return Columns(
      [
        .text(grouping.rawValue, json: "key") { $0.key },
        .count("n", json: "n") { $0.n },
        .duration("min", json: "min") { $0.min },
        .duration("mean", json: "mean") { $0.mean },
      ] + points + [
        .duration("max", json: "max") { $0.max },
        .json("percentiles") { row in
          .array(
            row.points.map { point in
              .object([
                ("p", .double(point.percentile)), ("value", .number(point.nanoseconds)),
                ("insufficient", .bool(point.insufficient)),
              ])
            })
        },
      ])
  }
}
