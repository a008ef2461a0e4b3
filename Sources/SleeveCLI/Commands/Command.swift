import SleeveHistory
import SleeveQuery

/// One `sleeve` subcommand.
protocol Command: Sendable {
  /// Its name, options and help.
  static var spec: CommandSpec { get }
  /// Runs it; returns the exit code. Throws `UsageError` for bad values and query, store or
  /// recorder errors for the rest, each naming its exit code (`CommandFailure`); a command that
  /// has printed why it failed throws the `ExitCode` itself.
  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode
  /// Whether `--format` takes the shared table/json/csv/markdown (a command with formats of its
  /// own parses it itself).
  static var usesSharedFormat: Bool { get }
  /// What of this command line writes the local file (`--apply`, a suppression, the push's
  /// ledger), so a shared history given as `--db` is refused before it is read; `nil`: nothing.
  static func writesLocalFile(_ arguments: ParsedArguments) -> String?
}

extension Command {
  static var usesSharedFormat: Bool { true }
  static func writesLocalFile(_ arguments: ParsedArguments) -> String? { nil }
}

/// What every command gets: where to write, which database, which format.
struct CommandContext {
  let console: Console
  /// The SQLite file the command reads or writes: `--db`, or the scratch mirror of the
  /// shared history `--db` named (``history``).
  var databasePath: String
  /// The shared history `--db` named (`postgresql://...`), when it named one.
  var history: HistoryLocation?
  var format: OutputFormat
  let command: CommandSpec
  /// How a table meets the reader (`--color`, `--expanded`, `--wide`, the terminal's width).
  var display = TerminalDisplay.plain

  /// Opens the database for a query, saying on standard error when it can only be read as an
  /// immutable snapshot (a read-only directory, file or mount). A lock held longer than
  /// `busyTimeout` is SQLite's busy error (exit 75).
  func openDatabase(busyTimeout: Duration = .seconds(5)) throws -> QueryDatabase {
    let database = try QueryDatabase(path: databasePath, busyTimeout: busyTimeout)
    if database.isImmutableSnapshot {
      var note =
        "Note: '\(TerminalText.escaped(databasePath))' cannot be locked here (read-only); reading it as an immutable "
        + "snapshot"
      if let size = database.unappliedLogBytes {
        note +=
          "; its -wal file (\(size) bytes) cannot be applied, so the newest commits may be "
          + "missing"
      }
      console.error(note + ".\n")
    }
    return database
  }

  /// Refuses to go on when `--db` named a shared history: `what` writes a local file (a
  /// history is written by `sleeve publish` alone).
  ///
  /// - Throws: `UsageError` saying so.
  func requireLocalFile(for what: String) throws {
    guard let history else { return }
    throw UsageError(
      "\(what) writes a local Sleeve file, and --db names a shared history "
        + "(\(history.redacted)); give the file instead", command: command.name)
  }

  /// Says on standard error, one escaped `Note:` line each, which of the filters matched
  /// nothing (the answer is still printed: an empty table, exit 0).
  func noteUnmatchedFilters(_ filter: QueryFilter, in database: QueryDatabase) throws {
    for note in try database.unmatchedFilters(filter) {
      console.error("Note: \(TerminalText.escaped(note))\n")
    }
  }

  /// Says on standard error, one escaped `Note:` line each, which of the selection's filters
  /// matched nothing (``OutcomeSelection/unmatchedFilters``).
  func noteUnmatched(_ selection: OutcomeSelection) {
    for note in selection.unmatchedFilters {
      console.error("Note: \(TerminalText.escaped(note))\n")
    }
  }

  /// Says on standard error, one `Warning:` line, which rows of the file belong to no session
  /// (`UnownedRows`): every answer leaves them out, and the gate refuses the file.
  func warnUnowned(_ unowned: UnownedRows) {
    guard !unowned.isEmpty else { return }
    console.error(
      "Warning: \(unowned) belong to no session (ids outside every session's id range): "
        + "answers leave them out, and 'sleeve check' and 'sleeve report' refuse the file "
        + "(exit 65).\n")
  }

  /// Writes a report in the chosen format to standard output; `header` and then `notes` are
  /// lines above the table (each escaped for the format).
  func print(table: Table, json: JSONValue, header: String? = nil, notes: [String] = []) {
    let lines = (header.map { [$0] } ?? []) + notes
    console.out(format.render(table: table, json: json, header: lines, display: display))
  }
}

/// Options several commands share, declared once (``Option``, ``Flag``).
enum SharedOptions {
  static let db = Option<String>(
    "db", value: "path", help: "The database (default: $SLEEVE_DB, else ./sleeve.sqlite).",
    completion: .files)
  static let format = Option<OutputFormat>(
    "format", value: "format", help: "Output: table, json, csv or markdown (default: table).")
  /// What the query commands share: `--db`, `--format`, and the display options
  /// (`TerminalDisplay.options`).
  static let common = [db.spec, format.spec] + TerminalDisplay.options

  /// `--out <file>`: write to this file instead of standard output (`help` says what); its
  /// completion offers file names.
  static func out(help: String) -> Option<String> {
    Option("out", value: "file", help: help, completion: .files)
  }

  /// `actor`'s value, else `$USER`: who a ledger entry names.
  static func actor(_ actor: Option<String>, in arguments: ParsedArguments, context: CommandContext)
    -> String?
  {
    arguments.text(of: actor) ?? context.console.environment["USER"]
  }

  static let control = Option<String>(
    "control", value: "name", help: "Only handlers on this control.")
  static let handler = Option<String>(
    "handler", value: "name", help: "Only this handler (its id or registration site).",
    completion: .recorded("handlers", fixed: []))
  static let flag = Option<String>(
    "flag", value: "key", help: "Only handlers gated by this flag.",
    completion: .recorded("flags", fixed: []))

  static let filters = SessionTerms.options.map(\.spec) + [control.spec, handler.spec, flag.spec]

  static let exact = Flag(
    "exact", help: "Answer from raw rows: exact percentiles (as --method exact).")
  static let methodOption = Option<AnswerMethod>(
    "method", value: "method",
    help: "auto (default: summaries when every session has them), exact or histogram.")
  /// `--exact` and `--method`: which rows the answer reads (`AnswerMethod`).
  static let method = [exact.spec, methodOption.spec]

  static let byOption = Option<Grouping>(
    "by", value: "group",
    help: "Group by control, handler (default), event, flag, variant or session.")
  static let by = byOption.spec

  /// The filter the options give; `defaultSession` applies when `--session` is absent.
  static func filter(
    _ arguments: ParsedArguments, context: CommandContext,
    defaultSession: SessionSelector = .last
  ) throws -> QueryFilter {
    var filter = QueryFilter()
    filter.session = defaultSession
    if arguments.text(of: SessionTerms.last) != nil, arguments.text(of: SessionTerms.session) != nil
    {
      throw UsageError(SessionTerms.conflict, command: context.command.name)
    }
    for term in SessionTerms.options {
      try context.value(term, in: arguments)?(&filter)
    }
    filter.control = arguments.text(of: control)
    filter.handler = arguments.text(of: handler)
    filter.flag = arguments.text(of: flag)
    filter.method = try method(arguments, context: context)
    return filter
  }

  /// The `--exact` / `--method` choice (default: auto); both at once only when they agree.
  static func method(_ arguments: ParsedArguments, context: CommandContext) throws
    -> AnswerMethod
  {
    let chosen = try context.value(methodOption, in: arguments)
    guard arguments.has(exact) else { return chosen ?? .automatic }
    guard chosen == nil || chosen == .exact else {
      throw UsageError(
        "--exact and --method \(chosen!.rawValue) contradict each other; pass one",
        command: context.command.name)
    }
    return .exact
  }

  /// The `--by` grouping (default: handler).
  static func grouping(_ arguments: ParsedArguments, context: CommandContext) throws -> Grouping {
    try context.value(byOption, in: arguments) ?? .handler
  }

  /// A line naming the sessions a report covers.
  static func sessionsLine(_ sessions: [SessionSummary]) -> String {
    if sessions.count == 1, let only = sessions.first {
      return "Session \(only.id) '\(only.name)' (\(only.status))"
    }
    return "Sessions \(sessions.map { String($0.id) }.joined(separator: ", "))"
  }
}
