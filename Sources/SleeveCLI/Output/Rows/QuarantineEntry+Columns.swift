import SleeveQuery

extension QuarantineEntry {
  /// The columns of `sleeve quarantine list`: the handler, its control (`(every control)`
  /// when the entry covers them all; JSON `null`), then why, who and when.
  static let columns = Columns<QuarantineEntry>(
    [
      .text("handler", json: "handler") { $0.handler },
      Column(
        "control", unit: .text, layout: .text,
        members: [.init(key: "control") { .text($0.control) }]
      ) { Table.Cell($0.control ?? "(every control)", raw: $0.control ?? "") },
    ]
      + LedgerEntryColumns.columns(
        reason: { $0.reason }, actor: { $0.actor }, added: { $0.addedUnixNanoseconds }))
}
