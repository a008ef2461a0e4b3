import SleeveStore

/// One session `sleeve prune` pruned (or, with `--dry-run`, would prune): the plan's target
/// and whether it was summarized first.
struct PrunedSession: Sendable {
  /// The session and its raw rows.
  let target: RawRowPruner.Target
  /// Whether it had no summaries and was (or would be) summarized in its prune's transaction.
  let summarizedFirst: Bool

  /// The columns: the session, when it ended, the raw rows deleted, whether it was
  /// summarized first.
  static let columns = Columns<PrunedSession>([
    .count("session", json: "session") { $0.target.session },
    Column(
      "ended", unit: .text, layout: .text,
      members: [.init(key: "endedUnixNanoseconds") { .int($0.target.endedUnixNanoseconds) }]
    ) { Table.Cell(Formatting.timestamp(unixNanoseconds: $0.target.endedUnixNanoseconds)) },
    .count("fires", json: "fires") { $0.target.fires },
    .count("outcomes", json: "outcomes") { $0.target.outcomes },
    .count("interactions", json: "interactions") { $0.target.interactions },
    Column(
      "summarized_first", unit: .text, layout: .text,
      members: [.init(key: "summarizedFirst") { .bool($0.summarizedFirst) }]
    ) { Table.Cell($0.summarizedFirst ? "yes" : "no") },
  ])
}
