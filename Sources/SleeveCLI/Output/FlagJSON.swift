import SleeveQuery

/// The JSON parts every flag report shares (`sleeve flags`, `sleeve report --format json`), so
/// their keys and values stay the same in both.
enum FlagJSON {
  /// `key`, `state`, `owner`, `maxErrorRate`, `maxP99`, `minSamples`, `servedPercent`, in
  /// that order (``FlagReport/definitionColumns``).
  static func definition(_ flag: FlagReport) -> [(String, JSONValue)] {
    Columns(FlagReport.definitionColumns).members(flag)
  }

  /// The rollout: declared unit (`null`: none, so per fire), salt, stages, and the cohorts
  /// at each share served.
  static func rollout(_ flag: FlagReport) -> JSONValue {
    .object([
      ("unit", .text(flag.rollout?.unit?.description)),
      ("effectiveUnit", .string((flag.rollout ?? .none).effectiveUnit.description)),
      (
        "stages",
        .array(
          (flag.rollout?.stages ?? []).map { stage in
            .object([
              ("percent", .number(stage.percent.percent)),
              ("minSamples", .integer(stage.minSamples)),
            ])
          })
      ),
      ("cohorts", cohorts(flag.stages)),
      // Per-share cohorts are read from raw rows whatever the answer's plan (summaries are
      // per handler and variant): the key says so beside `answeredFrom`.
      ("cohortsFrom", .string(AnswerPlan.Source.rawRows.rawValue)),
    ])
  }

  /// Each served share's cohorts: units, outcomes, n, errors, p50, p99 and lost share per
  /// arm, the outcomes outside the split, and the split's sample-ratio check
  /// (``StageCohorts/columns``).
  static func cohorts(_ stages: [StageCohorts]) -> JSONValue {
    StageCohorts.columns.json(stages)
  }

  /// The state changes, oldest first.
  static func history(_ flag: FlagReport) -> JSONValue {
    .array(
      flag.history.map { change in
        .object([
          ("state", .string(change.state)), ("percent", .number(change.percent?.percent)),
          ("reason", .text(change.reason)),
          ("actor", .text(change.actor)),
          ("at", .string(Formatting.timestamp(unixNanoseconds: change.atUnixNanoseconds))),
          ("session", .integer(change.session)),
        ])
      })
  }
}
