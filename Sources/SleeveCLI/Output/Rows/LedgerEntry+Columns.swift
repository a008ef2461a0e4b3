/// The columns every ledger listing ends with (`quarantine list`, `lint suppressions`): why,
/// who and when. The one home of their form: the reason (free text, it folds into notes on a
/// narrow terminal), the actor (`-` when none, JSON `null`), the time added (raw and
/// `addedUnixNs`: Unix nanoseconds; JSON `added` as the table shows it).
enum LedgerEntryColumns {
  /// The three columns of a row whose `reason`, `actor` and `added` (Unix nanoseconds) are
  /// read by the closures.
  static func columns<Row>(
    reason: @escaping @Sendable (Row) -> String, actor: @escaping @Sendable (Row) -> String?,
    added: @escaping @Sendable (Row) -> Int64
  ) -> [Column<Row>] {
    [
      .text("reason", json: "reason", layout: .freeText, reason),
      Column(
        "actor", unit: .text, layout: .text, members: [.init(key: "actor") { .text(actor($0)) }]
      ) { row in Table.Cell(actor(row) ?? "-", raw: actor(row) ?? "") },
      Column(
        "added", unit: .text, layout: .text,
        members: [
          .init(key: "added") { .string(Formatting.timestamp(unixNanoseconds: added($0))) },
          .init(key: "addedUnixNs") { .int(added($0)) },
        ]
      ) { row in
        Table.Cell(
          Formatting.timestamp(unixNanoseconds: added(row)), raw: String(added(row)))
      },
    ]
  }
}
