import SleeveHistory
import SleeveQuery

extension PruneCommand {
  /// `--older-than <age>`: a shared history's retention, as `--raw-older-than` reads its value.
  static let olderThan = Option(
    "older-than", value: "age",
    help: "History (--db URL): delete sessions that ended before this age or date."
  ) { text throws(ValueError) in try ValueParsers.since(text) }

  /// `sleeve prune --db URL --older-than AGE [--dry-run]`: whole sessions out of a history.
  static func prune(
    _ history: HistoryLocation, _ arguments: ParsedArguments, context: CommandContext
  ) throws -> ExitCode {
    for option in [rawOlderThan.spec, keepLast.spec]
      + SessionTerms.optionsDefaultingToAll.map(\.spec)
    where arguments.isGiven(option) {
      throw UsageError(
        "--\(option.name) applies to a local file; a shared history is pruned by "
          + "--older-than <age> alone", command: spec.name)
    }
    guard let cutoff = try context.value(olderThan, in: arguments) else {
      throw UsageError(
        "Give --older-than <age> (e.g. 90d): which sessions to delete from the history",
        command: spec.name)
    }
    let dry = arguments.has(dryRun)
    let progress = ProgressLine(console: context.console)
    defer { progress.finish() }
    let report = try HistoryPruner(history).prune(endedBefore: cutoff, dryRun: dry) {
      progress.update("Deleted \($0) sessions")
    }
    progress.finish()
    let sessions = LintReportText.plural(report.sessions.count, "session")
    context.print(
      AnswerView(
        header: [
          dry
            ? "Would delete \(sessions) from \(history.redacted). Nothing was changed (--dry-run)."
            : "Deleted \(sessions) from \(history.redacted) in "
              + LintReportText.plural(report.batches, "transaction") + "."
        ],
        fields: [("dryRun", .bool(dry))], rowsKey: "sessions", trailingFields: [],
        columns: PrunedHistorySession.columns,
        rows: report.sessions.map { PrunedHistorySession(uuid: $0) }
      ))
    return .success
  }
}

/// One session a history prune deleted: its UUID (the history's numbers are its own).
struct PrunedHistorySession: Sendable {
  /// Its UUID.
  let uuid: String

  /// The one column: the UUID.
  static let columns = Columns<PrunedHistorySession>([.text("uuid", json: "uuid") { $0.uuid }])
}
