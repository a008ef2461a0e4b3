import SleeveQuery

/// The JSON parts every flag report shares (`sleeve flags`, `sleeve report --format json`), so
/// their keys and values stay the same in both.
enum FlagJSON {
  /// `key`, `state`, `owner`, `maxErrorRate`, `maxP99`, `minSamples`, in that order.
  static func definition(_ flag: FlagReport) -> [(String, JSONValue)] {
    [
      ("key", .string(flag.key)), ("state", .string(flag.state)), ("owner", .text(flag.owner)),
      ("maxErrorRate", .number(flag.maxErrorRate)), ("maxP99", .integer(flag.maxP99Nanoseconds)),
      ("minSamples", .integer(flag.minSamples)),
      ("servedPercent", .number(flag.servedPercent?.percent)),
    ]
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
  /// arm, the outcomes outside the split, and the split's sample-ratio check.
  static func cohorts(_ stages: [StageCohorts]) -> JSONValue {
    func arm(_ arm: StageCohorts.Arm) -> JSONValue {
      .object([
        ("units", .integer(arm.units)), ("outcomes", .integer(arm.outcomes)),
        ("n", .integer(arm.cohort.n)), ("failed", .integer(arm.cohort.failed)),
        ("errorRate", .number(arm.cohort.errorRate)), ("p50", .number(arm.cohort.p50Nanoseconds)),
        ("p99", .number(arm.cohort.p99Nanoseconds)), ("lostShare", .number(arm.lostShare)),
      ])
    }
    return .array(
      stages.map { stage in
        let split = stage.sampleRatio
        return .object([
          ("percent", .number(stage.percent.percent)), ("on", arm(stage.on)),
          ("off", arm(stage.off)), ("unassigned", .integer(stage.unassigned)),
          ("splitPValue", .number(split?.pValue)), ("split", .text(split?.outcome.description)),
        ])
      })
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
