import SleeveQuery

extension ErrorRateRow {
  /// The columns of `sleeve errors`, keyed by `grouping`'s name: the rate over ok + failed with
  /// its Wilson interval, then the statuses that did not run. People's tables leave out a
  /// status that is 0 in every row, and on a terminal too narrow for them `ok` (n − failed)
  /// and the other statuses, each with a note (``Table/Fold``).
  static func columns(by grouping: Grouping) -> Columns<ErrorRateRow> {
    Columns([
      .text(grouping.rawValue, json: "key") { $0.key },
      .count("n", json: "n") { $0.n },
      .count("ok", json: "ok") { $0.ok }.folding(.derived("n - failed")),
      .count("failed", json: "failed") { $0.failed },
      .proportion("error rate", json: "errorRate") { $0.rate },
      .interval { $0.interval },
      .count("ownerReleased", json: "ownerReleased") { $0.ownerReleased }.folding(.zero),
      .count("skipped", json: "skipped") { $0.skipped }.folding(.zero),
      .count("cancelled", json: "cancelled") { $0.cancelled }.folding(.zero),
      .count("recursionLimit", json: "recursionLimit") { $0.recursionLimit }.folding(.zero),
    ])
  }
}
