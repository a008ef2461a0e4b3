import SleeveHistory
import SleeveQuery

/// The options and the one reading path of the shared history (PostgreSQL, `docs/history.md`):
/// `--db URL` mirrors a whole history for a reading command, `--history URL` puts a history's
/// sessions beside the local file for a comparison (`check --baseline`, `diff`).
enum HistoryOptions {
  /// `--history url`: the shared history a comparison's baseline is read from.
  static let history = Option<String>(
    "history", value: "url",
    help: "The shared history the baseline is read from (postgresql://...).",
    completion: .none)

  /// The commands that answer from a history given as `--db URL` (from its summaries, as a
  /// pruned file answers).
  static let readers: Set<String> = [
    "sessions", "errors", "latency", "flags", "diff", "check", "flaky", "changes", "report",
    "lint", "export",
  ]

  /// The commands that take `--db URL` themselves.
  static let owners: Set<String> = ["migrate", "publish", "prune"]

  /// Refuses a history URL given to a command that cannot use one.
  ///
  /// - Throws: `UsageError` naming what the command can do instead.
  static func refuseUnlessSupported(_ command: String) throws {
    guard !readers.contains(command), !owners.contains(command) else { return }
    throw UsageError(
      "--db names a shared history (postgresql://...); '\(command)' works on a local Sleeve "
        + "file only (a history is written by 'sleeve publish' and read by "
        + readers.sorted().joined(separator: ", ") + ")", command: command)
  }

  /// The location in `text`, or a usage error naming the option.
  static func location(_ text: String, option: String, command: String) throws
    -> HistoryLocation
  {
    do {
      return try HistoryLocation(text)
    } catch {
      throw UsageError("--\(option): \(error.message)", command: command)
    }
  }

  /// The database a comparison reads. Without `--history`, the local file. With it, a scratch
  /// file holding the local file (its numbers, raw rows and all) and the history's sessions
  /// numbered after it: `candidate` is narrowed to the local sessions, `baseline` to the
  /// history's, whose bodies are then copied for the sessions `baseline` selects (for every
  /// session when `everySession`: `--quarantine flaky` judges flakiness over all of them).
  static func comparisonDatabase(
    _ arguments: ParsedArguments, context: CommandContext, baseline: inout QueryFilter,
    candidate: inout QueryFilter, everySession: Bool = false
  ) throws -> QueryDatabase {
    let local = try context.openDatabase()
    guard let url = arguments.text(of: history) else { return local }
    let location = try location(url, option: history.spec.name, command: context.command.name)
    let mirror = try HistoryMirror.beside(local: context.databasePath, history: location)
    candidate.sessionNumbers = mirror.localSessions.map { [$0] } ?? []
    baseline.sessionNumbers = mirror.historySessions
    let database = try QueryDatabase(path: mirror.path)
    database.retained = mirror
    var every = QueryFilter()
    every.session = .all
    let selected = try database.sessions(of: .baseline, matching: everySession ? every : baseline)
    try mirror.loadBodies(of: selected.map(\.id))
    return database
  }
}

extension CheckCommand {
  static func writesLocalFile(_ arguments: ParsedArguments) -> String? {
    arguments.has(applyFlag) ? "--apply" : nil
  }
}

extension LintCommand {
  static func writesLocalFile(_ arguments: ParsedArguments) -> String? {
    ["suppress", "unsuppress"].contains(arguments.arguments.first ?? "")
      ? "'lint \(arguments.arguments[0])'" : nil
  }
}

extension ExportCommand {
  static func writesLocalFile(_ arguments: ParsedArguments) -> String? {
    arguments.text(of: endpoint) != nil || arguments.has(pushFlag)
      ? "the push (its delivery ledger)" : nil
  }
}
