import SleeveHistory
import SleeveQuery
import SleeveStore

/// `sleeve publish`: copy ended sessions of the local file into a shared history
/// (PostgreSQL), one transaction per session, keyed by UUID (`HistoryPublisher`).
enum PublishCommand: Command {
  static let spec = CommandSpec(
    name: "publish",
    abstract: "Publish ended sessions to a shared history (PostgreSQL): --to URL.",
    discussion: """
      Copies each selected ended session of --db into the history at --to (default:
      $SLEEVE_HISTORY): what the file would hold of it after 'sleeve prune --keep-last 0'
      (its row, where it ran, handlers, flags, summaries and failure kinds; never raw fires
      and outcomes). The file is read, never written. Each session is one transaction keyed
      by its UUID: a session the history holds already is skipped, so publishing again sends
      nothing new and a publish cut short is finished by running it again; one the history
      holds with other summaries is refused, never written over (exit 65, after the rest are
      published). Sessions that have not ended are left out. Many runners publish to one
      history at once: they only insert. Create the history first with 'sleeve migrate --db
      URL'. Selects every session unless --session or a filter narrows it.
      """,
    options: SharedOptions.common + SessionTerms.optionsDefaultingToAll.map(\.spec) + [to.spec])

  /// `--to url`: the history.
  static let to = Option<String>(
    "to", value: "url", help: "The history: postgresql://... (default: $SLEEVE_HISTORY).",
    completion: .none)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    try context.requireLocalFile(for: "publish reads the sessions of --db, which")
    let url =
      arguments.text(of: to)
      ?? context.console.environment["SLEEVE_HISTORY"].flatMap { $0.isEmpty ? nil : $0 }
    guard let url else {
      throw UsageError(
        "Give --to postgresql://... (or set SLEEVE_HISTORY): the history to publish to",
        command: spec.name)
    }
    let history = try HistoryOptions.location(url, option: to.spec.name, command: spec.name)
    let filter = try SharedOptions.filter(arguments, context: context, defaultSession: .all)
    let sessions = try context.openDatabase().sessions(matching: filter)
    let publisher = try HistoryPublisher(history)
    let progress = ProgressLine(console: context.console)
    defer { progress.finish() }
    let report = try publisher.publish(file: context.databasePath, uuids: sessions.map(\.uuid)) {
      progress.update("Publishing session \($0) of \(sessions.count)")
    }
    progress.finish()
    let rows = PublishedSession.rows(report, sessions: sessions)
    context.print(
      AnswerView(
        header: [line(report, history: history)], fields: [], rowsKey: "sessions",
        trailingFields: [], columns: PublishedSession.columns, rows: rows))
    for refusal in report.refused {
      context.console.error(
        "Warning: session \(TerminalText.escaped(refusal.uuid)) was not published: "
          + "\(TerminalText.escaped(refusal.reason)).\n")
    }
    return report.refused.isEmpty ? .success : .dataError
  }

  /// `Published 3 sessions to postgresql://ci:***@db/sleeve; 2 already there; 1 not ended.`
  static func line(_ report: HistoryPublisher.Report, history: HistoryLocation) -> String {
    var parts = [
      "Published \(LintReportText.plural(report.published.count, "session")) to "
        + history.redacted
    ]
    if !report.alreadyPresent.isEmpty {
      parts.append("\(report.alreadyPresent.count) already there")
    }
    if !report.refused.isEmpty { parts.append("\(report.refused.count) refused") }
    if !report.notEnded.isEmpty { parts.append("\(report.notEnded.count) not ended (left out)") }
    return parts.joined(separator: "; ") + "."
  }
}

/// One selected session and what publishing did with it.
struct PublishedSession: Sendable {
  /// Its number in the local file.
  let session: Int64
  /// Its UUID.
  let uuid: String
  /// published, already-present, refused or not-ended.
  let outcome: String
  /// Why it was refused (empty otherwise).
  let reason: String

  /// The rows of `report`, in the order of `sessions`.
  static func rows(_ report: HistoryPublisher.Report, sessions: [SessionSummary])
    -> [PublishedSession]
  {
    var outcomes: [String: (String, String)] = [:]
    for uuid in report.published { outcomes[uuid] = ("published", "") }
    for uuid in report.alreadyPresent { outcomes[uuid] = ("already-present", "") }
    for uuid in report.notEnded { outcomes[uuid] = ("not-ended", "") }
    for refusal in report.refused { outcomes[refusal.uuid] = ("refused", refusal.reason) }
    return sessions.map {
      let (outcome, reason) = outcomes[$0.uuid] ?? ("not-ended", "")
      return PublishedSession(session: $0.id, uuid: $0.uuid, outcome: outcome, reason: reason)
    }
  }

  /// The columns: the session, its UUID, the outcome and the reason.
  static let columns = Columns<PublishedSession>([
    .count("session", json: "session") { $0.session },
    .text("uuid", json: "uuid") { $0.uuid },
    .text("outcome", json: "outcome") { $0.outcome },
    .text("reason", json: "reason") { $0.reason },
  ])
}
