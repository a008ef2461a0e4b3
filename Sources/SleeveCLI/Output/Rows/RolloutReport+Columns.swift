import SleeveQuery

extension SessionSummary {
  /// A session as `sleeve report` lists it: id, name, start, duration, status, outcomes and
  /// where it ran (runtime, Sleeve and SQLite versions, host); JSON adds its uuid, OS and
  /// recorded environment.
  static let reportColumns = Columns<SessionSummary>([
    .count("id", json: "id") { $0.id },
    .json("uuid") { .string($0.uuid) },
    .text("name", json: "name") { $0.name },
    .text("started", json: "started") {
      Formatting.timestamp(unixNanoseconds: $0.startedUnixNanoseconds)
    },
    .number("duration", json: "durationSeconds", { $0.durationSeconds }) {
      Formatting.fixed($0, digits: 1) + " s"
    },
    .text("status", json: "status") { $0.status },
    .count("outcomes", json: "outcomes") { $0.outcomes },
    .json("host") { .text($0.metadata["host"]) },
    .json("os") { .text($0.metadata["os"]) },
    .text("runtime", json: nil) { $0.metadata["runtime"] ?? "" },
    .json("runtime") { .text($0.metadata["runtime"]) },
    .text("sleeve", json: nil) { $0.metadata["sleeveVersion"] ?? "" },
    .json("sleeveVersion") { .text($0.metadata["sleeveVersion"]) },
    .text("sqlite", json: nil) { $0.metadata["sqliteVersion"] ?? "" },
    .json("sqliteVersion") { .text($0.metadata["sqliteVersion"]) },
    .text("host", json: nil) { $0.metadata["host"] ?? "" },
    .json("environment") { .string(ReportText.environment($0)) },
  ])
}

/// One cohort of a flag as a row of the report's cohort table: its name (`on`, `off`) and
/// its figures.
struct ReportCohortRow: Sendable {
  /// `on` or `off`.
  let name: String
  /// The cohort.
  let cohort: FlagReport.Cohort

  /// The flag's two cohorts, flag-on first.
  static func rows(of flag: FlagReport) -> [ReportCohortRow] {
    [ReportCohortRow(name: "on", cohort: flag.on), ReportCohortRow(name: "off", cohort: flag.off)]
  }

  /// The cohort's name, then its columns (``FlagReport/Cohort/columns(_:)``).
  static let columns = Columns<ReportCohortRow>(
    [.text("cohort", json: nil) { $0.name }]
      + FlagReport.Cohort.columns(.report).over { $0.cohort })
}

extension RolloutReport.HandlerRow {
  /// A handler as `sleeve report` lists it: n, failures, error rate with its Wilson interval,
  /// p50, p95 and p99 (the histograms' bound beside a value from summaries, `*` when
  /// insufficient).
  static let columns = Columns<RolloutReport.HandlerRow>(
    [
      .text("handler", json: "handler") { $0.errors.key },
      .count("n", json: "n") { $0.errors.n },
      .count("failed", json: "failed") { $0.errors.failed },
      .proportion("error rate", json: "errorRate") { $0.errors.rate },
      .interval { $0.errors.interval },
    ]
      + ["p50", "p95", "p99"].enumerated().map { index, title in
        .percentile(
          title, json: title, { $0.latency.points[index].nanoseconds },
          bound: { $0.latency.relativeError },
          insufficient: { $0.latency.points[index].insufficient })
      })
}
