import SleeveQuery

/// The rollout report as JSON with stable keys.
enum JSONReport {
  static func render(_ report: RolloutReport) -> JSONValue {
    .object(
      [
        ("decision", .string(report.decision.rawValue)),
        (
          "checkExitCode",
          CheckCommand.gateExit(report.decision).map { .int(Int64($0.rawValue)) } ?? .null
        ),
        (
          "methods",
          .object([
            ("errorRate", .string(ErrorRateRow.method)),
            ("percentiles", .string(ReportText.percentileMethod(report.plan))),
            ("errorRateComparison", .string(TwoProportionTest.method)),
            ("latencyComparison", .string(MannWhitneyTest.method)),
            ("confidence", .double(1 - GateCheck.significance)),
          ])
        ),
      ] + report.plan.jsonFields + [
        ("sessions", .array(report.sessions.map(session))),
        ("flags", .array(report.flags.map(flag))),
        ("handlers", .array(report.handlers.map(handler))),
      ] + baseline(report))
  }

  /// The comparison with the baseline, when one was given: both sides' sessions and the
  /// checks, what rolls back first (`check --baseline`'s `baseline` checks, reordered).
  private static func baseline(_ report: RolloutReport) -> [(String, JSONValue)] {
    guard let request = report.baseline else { return [] }
    return [
      (
        "baseline",
        .object([
          ("sessions", .array(request.baseline.map { .int($0.id) })),
          ("candidate", .array(request.candidate.map { .int($0.id) })),
          ("failureLimit", .int(Int64(request.failureLimit))),
          ("checks", .array(report.gate.baselineDecidingFirst.map(VerdictJSON.check))),
        ])
      )
    ]
  }

  private static func session(_ session: SessionSummary) -> JSONValue {
    .object([
      ("id", .int(session.id)), ("uuid", .string(session.uuid)), ("name", .string(session.name)),
      ("started", .string(Formatting.timestamp(unixNanoseconds: session.startedUnixNanoseconds))),
      ("durationSeconds", .number(session.durationSeconds)), ("status", .string(session.status)),
      ("outcomes", .integer(session.outcomes)), ("host", .text(session.metadata["host"])),
      ("os", .text(session.metadata["os"])), ("runtime", .text(session.metadata["runtime"])),
      ("sleeveVersion", .text(session.metadata["sleeveVersion"])),
      ("sqliteVersion", .text(session.metadata["sqliteVersion"])),
      ("environment", .string(ReportText.environment(session))),
    ])
  }

  private static func flag(_ section: RolloutReport.FlagSection) -> JSONValue {
    let flag = section.report
    func cohort(_ cohort: FlagReport.Cohort) -> JSONValue {
      .object([
        ("n", .integer(cohort.n)), ("failed", .integer(cohort.failed)),
        ("errorRate", .number(cohort.errorRate)),
        ("intervalLower", .number(cohort.interval?.lower)),
        ("intervalUpper", .number(cohort.interval?.upper)),
        ("p50", .number(cohort.p50Nanoseconds)), ("p95", .number(cohort.p95Nanoseconds)),
        ("p99", .number(cohort.p99Nanoseconds)),
      ])
    }
    return .object(
      FlagJSON.definition(flag) + [
        ("on", cohort(flag.on)), ("off", cohort(flag.off)),
        ("verdict", VerdictJSON.flag(section.verdict)),
        ("history", FlagJSON.history(flag)),
      ])
  }

  private static func handler(_ row: RolloutReport.HandlerRow) -> JSONValue {
    .object([
      ("handler", .string(row.errors.key)), ("n", .integer(row.errors.n)),
      ("failed", .integer(row.errors.failed)), ("errorRate", .number(row.errors.rate)),
      ("intervalLower", .number(row.errors.interval?.lower)),
      ("intervalUpper", .number(row.errors.interval?.upper)),
      ("p50", .number(row.latency.points[0].nanoseconds)),
      ("p95", .number(row.latency.points[1].nanoseconds)),
      ("p99", .number(row.latency.points[2].nanoseconds)),
    ])
  }
}
