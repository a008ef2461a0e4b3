import SleeveStore

extension SessionMerger.Report {
  /// The columns of `sleeve merge`, one row per input: what was copied, refreshed, already
  /// there or left out (not ended), and the outcomes and flag changes copied. The table
  /// counts the sessions copied and refreshed; JSON lists their UUIDs.
  static let columns = Columns<SessionMerger.Report>([
    .text("input", json: "path") { $0.path },
    .count("copied", json: nil) { $0.copied.count },
    .json("copied") { .array($0.copied.map { .string($0) }) },
    .count("refreshed", json: nil) { $0.refreshed.count },
    .json("refreshed") { .array($0.refreshed.map { .string($0) }) },
    .count("already_present", json: "alreadyPresent") { $0.alreadyPresent },
    .count("not_ended", json: "notEnded") { $0.notEnded },
    .count("outcomes", json: "outcomes") { $0.outcomes },
    .count("flag_changes", json: "flagChanges") { $0.flagChanges },
  ])
}
