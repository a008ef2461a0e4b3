import SleeveQuery

extension ErrorRateRow {
  /// The columns of `sleeve errors`, keyed by `grouping`'s name: the rate over ok + failed with
  /// its Wilson interval, then the statuses that did not run.
  static func columns(by grouping: Grouping) -> Columns<ErrorRateRow> {
    Columns([
      .text(grouping.rawValue, json: "key") { $0.key },
      .count("n", json: "n") { $0.n },
      .count("ok", json: "ok") { $0.ok },
      .count("failed", json: "failed") { $0.failed },
      .proportion("error rate", json: "errorRate") { $0.rate },
      .interval { $0.interval },
      .count("ownerReleased", json: "ownerReleased") { $0.ownerReleased },
      .count("skipped", json: "skipped") { $0.skipped },
      .count("cancelled", json: "cancelled") { $0.cancelled },
      .count("recursionLimit", json: "recursionLimit") { $0.recursionLimit },
    ])
  }
}
