import SleeveQuery
import SleeveStore

/// `sleeve summarize`: write the latency summaries of ended sessions that have none (files
/// recorded before summaries existed), or rebuild them.
enum SummarizeCommand: Command {
  static let spec = CommandSpec(
    name: "summarize",
    abstract: "Write the latency summaries of ended sessions that have none yet.",
    discussion: """
      A session is summarized when it ends (and when merge copies it); this summarizes the
      sessions of files recorded before summaries existed, so reports answer from summaries
      and prune can take their raw rows. Every selected ended session without summaries is
      summarized from its raw rows, each in a transaction of its own: an interrupted run keeps
      what it did, and running it again goes on from there. Sessions that have not ended are
      left out (reports summarize them when they read them). --rebuild writes again the
      summaries of sessions that have them (a damaged summary), except pruned sessions, whose
      summaries are all that is left of them. Upgrades a file from before summaries, as every
      writer does. Selects every session unless --session or a filter narrows it.
      """,
    options: SharedOptions.common + SessionTerms.optionsDefaultingToAll.map(\.spec) + [
      rebuild.spec
    ])

  /// `--rebuild`.
  static let rebuild = Flag(
    "rebuild", help: "Also rebuild the summaries of sessions that have them (not pruned).")

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context, defaultSession: .all)
    // The selection is read first, so a selection that matches nothing never upgrades the file.
    let database = try context.openDatabase()
    // Unchecked: rebuilding is how a damaged summary is repaired.
    let (sessions, unowned) = try database.snapshot {
      (
        try database.sessions(matching: filter, checkingSummaries: false),
        try database.unownedRows()
      )
    }
    context.warnUnowned(unowned)
    let store = try StoreWriter(path: context.databasePath)
    let progress = ProgressLine(console: context.console)
    // Cleared on the way out too: an error line then starts a row of its own.
    defer { progress.finish() }
    let report = try store.summarize(
      sessions: sessions.map(\.id), rebuild: arguments.has(Self.rebuild)
    ) { done in
      progress.update("Summarizing session \(done) of \(sessions.count)")
    }
    progress.finish()
    show(report, sessions: sessions, context: context)
    return .success
  }

  /// `Summarized 12 sessions (340 summaries); 2 already summarized; 1 not ended.`
  static func line(_ report: SessionSummarizer.Report) -> String {
    let count = report.summarized.count
    var parts = [
      "Summarized \(count) session\(count == 1 ? "" : "s") (\(report.summaries) "
        + "summar\(report.summaries == 1 ? "y" : "ies"))"
    ]
    if !report.alreadySummarized.isEmpty {
      parts.append("\(report.alreadySummarized.count) already summarized")
    }
    if !report.notEnded.isEmpty {
      parts.append("\(report.notEnded.count) not ended (summarized when read)")
    }
    if !report.pruned.isEmpty {
      parts.append("\(report.pruned.count) raw pruned (kept as summarized)")
    }
    if !report.missing.isEmpty { parts.append("\(report.missing.count) gone meanwhile") }
    return parts.joined(separator: "; ") + "."
  }

  private static func show(
    _ report: SessionSummarizer.Report, sessions: [SessionSummary], context: CommandContext
  ) {
    let ids = { (list: [Int64]) in JSONValue.array(list.map { .int($0) }) }
    context.print(
      AnswerView(
        header: [line(report)],
        fields: [
          ("summarized", SummarizedSession.summarizedColumns.json(report.summarized)),
          ("summaries", .integer(report.summaries)),
          ("alreadySummarized", ids(report.alreadySummarized)),
          ("notEnded", ids(report.notEnded)), ("rawPruned", ids(report.pruned)),
          ("gone", ids(report.missing)),
        ], rowsKey: nil, columns: SummarizedSession.columns,
        rows: SummarizedSession.rows(report, sessions: sessions)))
  }
}
