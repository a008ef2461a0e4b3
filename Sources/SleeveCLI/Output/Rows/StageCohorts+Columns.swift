import SleeveQuery

extension StageCohorts.Arm {
  /// One arm of a served share: units, n, error rate, p50 and p99 (`*` when insufficient) in
  /// the table; in JSON its units, outcomes, n, failures, error rate, p50, p99 and lost share.
  static let columns = Columns<StageCohorts.Arm>([
    .count("units", json: "units") { $0.units },
    .json("outcomes") { .integer($0.outcomes) },
    .count("n", json: "n") { $0.cohort.n },
    .json("failed") { .integer($0.cohort.failed) },
    .text("error rate", json: nil, layout: .numeric) { Formatting.percent($0.cohort.errorRate) },
    .json("errorRate") { .number($0.cohort.errorRate) },
    .text("p50", json: nil, layout: .numeric) { Formatting.duration($0.cohort.p50Nanoseconds) },
    .json("p50") { .number($0.cohort.p50Nanoseconds) },
    .text("p99", json: nil, layout: .numeric) {
      Formatting.duration($0.cohort.p99Nanoseconds) + ($0.cohort.p99Insufficient ? "*" : "")
    },
    .json("p99") { .number($0.cohort.p99Nanoseconds) },
    .json("lostShare") { .number($0.lostShare) },
  ])
}

extension StageCohorts {
  /// One row per share a flag served: the two concurrent cohorts, their units, the split's
  /// sample-ratio p-value, the share of each cohort in sessions that lost data, and the
  /// outcomes outside the split; JSON nests each arm under `on` and `off`.
  static let columns = Columns<StageCohorts>(
    [.text("share", json: nil) { $0.percent.description }]
      + arm("on", \.on) + arm("off", \.off) + [
        .text("split p", json: nil, layout: .numeric) { stage in
          let split = stage.sampleRatio
          return switch split?.outcome {
          case .consistent?, .mismatch?:
            VerdictTable.pValue(split?.pValue) + (split?.isMismatch == true ? " mismatch" : "")
          default: "-"
          }
        },
        .text("lost on/off", json: nil) {
          Formatting.percent($0.on.lostShare) + " / " + Formatting.percent($0.off.lostShare)
        },
        .json("percent") { .number($0.percent.percent) },
        .json("on") { Arm.columns.object($0.on) },
        .json("off") { Arm.columns.object($0.off) },
        .count("unassigned", json: "unassigned") { $0.unassigned },
        .json("splitPValue") { .number($0.sampleRatio?.pValue) },
        .json("split") { .text($0.sampleRatio?.outcome.description) },
      ])

  /// One arm's columns in the share's table, titled `on units`, `on n`, ….
  private static func arm(_ name: String, _ part: @escaping @Sendable (StageCohorts) -> Arm)
    -> [Column<StageCohorts>]
  {
    Arm.columns.over(part).filter { $0.title != nil }.map {
      $0.titled(name + " " + ($0.title ?? "")).tableOnly
    }
  }
}
