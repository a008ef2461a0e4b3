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
            ("percentiles", .string(report.plan.percentileMethod)),
            ("errorRateComparison", .string(TwoProportionTest.method)),
            ("latencyComparison", .string(MannWhitneyTest.method)),
            ("confidence", .double(1 - GateCheck.significance)),
          ])
        ),
      ] + report.plan.jsonFields + [
        ("sessions", SessionSummary.reportColumns.json(report.sessions)),
        ("flags", .array(report.flags.map(flag))),
        ("handlers", RolloutReport.HandlerRow.columns.json(report.handlers)),
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

  private static func flag(_ section: RolloutReport.FlagSection) -> JSONValue {
    let flag = section.report
    return .object(
      FlagJSON.definition(flag) + [
        ("on", FlagReport.Cohort.columns(.report).object(flag.on)),
        ("off", FlagReport.Cohort.columns(.report).object(flag.off)),
        ("verdict", VerdictJSON.flag(section.verdict)),
        ("history", FlagJSON.history(flag)),
      ])
  }

}
