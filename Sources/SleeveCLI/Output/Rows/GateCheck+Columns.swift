import SleeveQuery

extension GateCheck {
  /// The columns of the gate's checks (`check`, `report`, `check --baseline`'s PR comment):
  /// what, the metric, value and threshold as people read them (``VerdictTable``), n and its
  /// floor, the p-value, the verdict (toned), the method and, with `detail`, why. Without
  /// `method` the table leaves the method out (a report states it once under the table).
  /// JSON has every member whatever the table shows: the threshold is `null` when unknown.
  /// On a terminal, the checks that pass and the advisory ones (never counted) fold into a
  /// note each, naming their subjects (``Table/RowFold``).
  static func columns(detail: Bool = false, method: Bool = true) -> Columns<GateCheck> {
    Columns(
      [
        .text("check", json: "subject") { $0.subject },
        .text("metric", json: "metric") { $0.metric.rawValue },
        Column(
          "value", unit: .number, layout: .numeric,
          members: [.init(key: "value") { .number($0.value) }]
        ) { Table.Cell(VerdictTable.value($0), raw: Formatting.raw($0.value)) },
        Column(
          "threshold", unit: .number, layout: .numeric,
          members: [
            .init(key: "threshold") { $0.thresholdKnown ? .number($0.threshold) : .null }
          ]
        ) {
          Table.Cell(
            VerdictTable.threshold($0),
            raw: Formatting.raw($0.thresholdKnown ? $0.threshold : nil))
        },
        .count("n", json: "n") { $0.n },
        .count("min samples", json: "minSamples") { $0.minSamples },
        .number("p-value", json: "pValue", { $0.pValue }, display: { VerdictTable.pValue($0) }),
        Column(
          "verdict", unit: .text, layout: .text,
          members: [.init(key: "verdict") { .string($0.verdict.rawValue) }]
        ) { Table.Cell($0.verdict.rawValue, tone: Tone.ofVerdict($0.verdict.rawValue)) },
      ]
        + (method
          ? [.text("method", json: "method", layout: .freeText) { $0.method }]
          : [.json("method") { .string($0.method) }])
        + (detail ? [.text("detail", json: nil, layout: .freeText) { $0.detail ?? "" }] : []) + [
          .json("detail") { .text($0.detail) },
          .json("site") { .text($0.site) },
        ]
    ).foldingRows(name: \.subject) { check in
      switch check.verdict {
      case .pass: Table.RowFold.Noun(one: "check passed", many: "checks passed")
      case .advisory:
        Table.RowFold.Noun(
          one: "advisory check (not counted)", many: "advisory checks (not counted)")
      case .breach, .insufficient: nil
      }
    }
  }
}
