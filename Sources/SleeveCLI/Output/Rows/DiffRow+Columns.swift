import SleeveQuery

extension DiffRow.Side {
  /// One side of a compared group in JSON: n, failures, error rate with its Wilson interval,
  /// p50, p95 and p99, how its percentiles were computed, and how many sessions ran it.
  static let columns = Columns<DiffRow.Side>([
    .json("n") { .integer($0.n) },
    .json("failed") { .integer($0.failed) },
    .json("errorRate") { .number($0.errorRate) },
    .json("intervalLower") { .number($0.interval?.lower) },
    .json("intervalUpper") { .number($0.interval?.upper) },
    .json("p50") { .number($0.percentiles.first?.nanoseconds) },
    .json("p95") { .number($0.percentiles.dropFirst().first?.nanoseconds) },
    .json("p99") { .number($0.percentiles.last?.nanoseconds) },
    .json("percentileMethod") { .string($0.percentileMethod) },
    .json("sessions") { .integer($0.sessions) },
  ])

  /// The side's percentile at `index` of p50, p95, p99, as a column titled `title` over a
  /// row's side (``Column/percentile(_:json:_:bound:insufficient:)``: the histograms' bound
  /// beside a value from summaries; `*` on a value lacking samples; `-` when the side has none).
  fileprivate static func point(
    _ title: String, _ index: Int, of side: @escaping @Sendable (DiffRow) -> DiffRow.Side
  ) -> Column<DiffRow> {
    .percentile(
      title, json: nil,
      { index < side($0).percentiles.count ? side($0).percentiles[index].nanoseconds : nil },
      bound: { side($0).relativeError },
      insufficient: {
        index < side($0).percentiles.count && side($0).percentiles[index].insufficient
          && side($0).percentiles[index].nanoseconds != nil
      })
  }
}

extension DiffRow.Test {
  /// A test in JSON: its p-value, Holm-adjusted p-value, BH q-value and method.
  fileprivate var json: JSONValue {
    .object([
      ("pValue", .number(pValue)), ("holm", .number(holm)), ("q", .number(q)),
      ("method", .string(method)),
    ])
  }
}

extension DiffRow {
  /// The smallest Holm-adjusted p-value of the row's tests.
  fileprivate var holm: Double? {
    [errorTest, latencyTest].compactMap { $0?.holm }.min()
  }

  /// The smallest BH q-value of the row's tests.
  fileprivate var q: Double? {
    [errorTest, latencyTest].compactMap { $0?.q }.min()
  }

  /// The columns of a comparison (`sleeve diff`, `check --baseline`'s PR comment), keyed by
  /// `diff`'s grouping: the verdict (toned), both sides' n, error rate, p50 and p99, the
  /// shift, the tests, why and the methods under `diff`'s options. JSON names a handler by
  /// its control and name (any other group by its `key`) and nests each side and test. On a
  /// terminal, the rows no judgement needs (unchanged; new and gone, which only one side
  /// ran) fold into a note per verdict naming them (``Table/RowFold``).
  static func columns(for diff: BaselineDiff) -> Columns<DiffRow> {
    let options = diff.options
    return Columns([
      Column(
        "verdict", unit: .text, layout: .text,
        members: [.init(key: "verdict") { .string($0.verdict.rawValue) }]
      ) { Table.Cell($0.verdict.rawValue, tone: DiffTable.tone($0.verdict)) },
      .text(diff.grouping.rawValue, json: nil) { DiffTable.name($0) },
      .json { row in
        if case .handler(let control, let handler) = row.key {
          return [("control", .text(control)), ("handler", .string(handler))]
        }
        return [("key", .string(row.key.display))]
      },
      .json("site") { .text($0.site) },
      .json("movedFrom") { .text($0.movedFrom) },
      .count("n base", json: nil) { $0.baseline.n },
      .count("n cand", json: nil) { $0.candidate.n },
      .proportion("errors base", json: nil) { $0.baseline.errorRate },
      .proportion("errors cand", json: nil) { $0.candidate.errorRate },
      Side.point("p50 base", 0, of: \.baseline),
      Side.point("p50 cand", 0, of: \.candidate),
      Side.point("p99 base", 2, of: \.baseline),
      Side.point("p99 cand", 2, of: \.candidate),
      .json("baseline") { Side.columns.object($0.baseline) },
      .json("candidate") { Side.columns.object($0.candidate) },
      .duration("shift", json: nil) { $0.latencyShift },
      .json("errorChange") { .number($0.errorChange) },
      .json("latencyShift") { .number($0.latencyShift) },
      .number("p (Holm)", json: nil, { $0.holm }, display: { VerdictTable.pValue($0) }),
      .number("q (BH)", json: nil, { $0.q }, display: { VerdictTable.pValue($0) }),
      .text("why", json: nil, layout: .freeText) { DiffTable.why($0) },
      .text("method", json: nil, layout: .freeText) { DiffTable.method($0, options: options) },
      .json("errorTest") { $0.errorTest?.json ?? .null },
      .json("latencyTest") { $0.latencyTest?.json ?? .null },
      .json("newFailureTypes") { row in
        .array(
          row.newFailureKinds.map {
            .object([
              ("type", .string($0.kind.type)), ("pattern", .string($0.kind.pattern)),
              ("count", .integer($0.count)),
            ])
          })
      },
      .json("detectableErrorRise") { .number($0.detectable.errorRate) },
      .json("detectableLatencyShift") { .number($0.detectable.latencyShift) },
      .json("strata") { $0.strata.map { .integer($0) } ?? .null },
      .json("reasons") { .array($0.reasons.map { .string($0) }) },
    ]).foldingRows(name: { DiffTable.name($0) }) { row in
      switch row.verdict {
      case .unchanged, .new, .gone: Table.RowFold.Noun(row.verdict.rawValue)
      case .regressed, .improved, .insufficient: nil
      }
    }
  }
}
