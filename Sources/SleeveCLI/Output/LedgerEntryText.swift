/// The columns every ledger listing ends with (`quarantine list`, `lint suppressions`): why,
/// who and when, in the table and in JSON. The one home of their form.
enum LedgerEntryText {
  /// The trailing column names.
  static let columns = ["reason", "actor", "added"]

  /// The table cells: the reason, the actor (`-` when none), the time (raw: Unix ns).
  static func cells(reason: String, actor: String?, addedUnixNanoseconds: Int64) -> [Table.Cell] {
    [
      Table.Cell(reason), Table.Cell(actor ?? "-", raw: actor ?? ""),
      Table.Cell(
        Formatting.timestamp(unixNanoseconds: addedUnixNanoseconds),
        raw: String(addedUnixNanoseconds)),
    ]
  }

  /// The JSON fields: `reason`, `actor` (null when none), `added`, `addedUnixNs`.
  static func fields(reason: String, actor: String?, addedUnixNanoseconds: Int64)
    -> [(String, JSONValue)]
  {
    [
      ("reason", .string(reason)), ("actor", .text(actor)),
      ("added", .string(Formatting.timestamp(unixNanoseconds: addedUnixNanoseconds))),
      ("addedUnixNs", .int(addedUnixNanoseconds)),
    ]
  }
}
