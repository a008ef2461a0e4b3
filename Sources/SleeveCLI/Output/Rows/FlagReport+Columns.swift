import SleeveQuery

extension FlagReport.Cohort {
  /// Which answer shows a cohort: their tables are the same, their JSON members differ.
  enum Shown: Sendable {
    /// `sleeve flags`: JSON adds `p99Insufficient`.
    case flags
    /// `sleeve report`: JSON adds the failures after n.
    case report
  }

  /// The columns of one cohort (`sleeve flags`, and `sleeve report`'s cohort table): n, error
  /// rate with its Wilson interval, p50, p95 and p99 (``Column/percentile(_:json:_:bound:insufficient:)``:
  /// the histograms' bound beside each value from summaries, `*` on an insufficient p99); in
  /// JSON the same figures, with the members `shown` adds.
  static func columns(_ shown: Shown) -> Columns<FlagReport.Cohort> {
    Columns(
      [.count("n", json: "n") { $0.n }]
        + (shown == .report ? [.json("failed") { .integer($0.failed) }] : []) + [
          .proportion("error rate", json: "errorRate") { $0.errorRate },
          .interval { $0.interval },
          .percentile("p50", json: "p50", { $0.p50Nanoseconds }, bound: { $0.relativeError }),
          .percentile("p95", json: "p95", { $0.p95Nanoseconds }, bound: { $0.relativeError }),
          .percentile(
            "p99", json: "p99", { $0.p99Nanoseconds }, bound: { $0.relativeError },
            insufficient: { $0.p99Insufficient }),
        ] + (shown == .flags ? [.json("p99Insufficient") { .bool($0.p99Insufficient) }] : []))
  }
}

extension FlagReport {
  /// The columns of a flag's definition, as every flag answer shows it (`sleeve flags`, and
  /// the JSON of `sleeve report`): key, state (the table shows the last change as it reads),
  /// owner, thresholds and the share served now.
  static let definitionColumns: [Column<FlagReport>] = [
    .text("flag", json: "key") { $0.key },
    .text("state", json: nil) { $0.history.last?.display ?? $0.state },
    .json("state") { .string($0.state) },
    .text("owner", json: nil) { $0.owner ?? "-" },
    .json("owner") { .text($0.owner) },
    .proportion("max error rate", json: "maxErrorRate") { $0.maxErrorRate },
    .duration("max p99", json: "maxP99") { $0.maxP99Nanoseconds },
    Column(
      "min samples", unit: .count, layout: .numeric,
      members: [.init(key: "minSamples") { .integer($0.minSamples) }]
    ) { Table.Cell($0.minSamples.map(String.init) ?? "-") },
    .json("servedPercent") { .number($0.servedPercent?.percent) },
  ]

  /// The columns of `sleeve flags`: the definition, then the flag-on and flag-off cohorts
  /// side by side (`on n`, …, `off p99`); JSON nests each cohort under `on` and `off`, then
  /// the decision, the history and the rollout.
  static let columns = Columns<FlagReport>(
    definitionColumns + cohort("on", \.on) + cohort("off", \.off) + [
      .json("on") { Cohort.columns(.flags).object($0.on) },
      .json("off") { Cohort.columns(.flags).object($0.off) },
      .json("decision") { .string(FlagVerdict($0).decision.rawValue) },
      .json("history") { FlagJSON.history($0) },
      .json("rollout") { FlagJSON.rollout($0) },
    ])

  /// One cohort's columns in the flag's table, titled `on n`, `on error rate`, ….
  private static func cohort(_ name: String, _ part: @escaping @Sendable (FlagReport) -> Cohort)
    -> [Column<FlagReport>]
  {
    Cohort.columns(.flags).over(part).filter { $0.title != nil }.map {
      $0.titled(name + " " + ($0.title ?? "")).tableOnly
    }
  }
}
