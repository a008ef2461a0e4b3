import SleeveQuery
import SleeveStore

/// `sleeve quarantine add|remove|list`: the handlers whose failures `sleeve check` counts as
/// advisory, kept in the database (`QuarantineLedger`).
enum QuarantineCommand: Command {
  /// What the first argument asks for.
  enum Action: String, CaseIterable {
    case add, remove, list
  }

  static let spec = CommandSpec(
    name: "quarantine",
    abstract: "Quarantine handlers: check counts their failures as advisory.",
    discussion: """
        sleeve quarantine add <handler> --reason <text> [--control <name>] [--actor <name>]
        sleeve quarantine remove <handler> [--control <name>]
        sleeve quarantine list [--format <format>]

      A handler is named as reports name it (its id, else its registration site) or by its
      registration site; without --control the entry covers it on every control. Adding it
      again updates the reason, actor and time: never a second entry. add refuses a handler
      no session recorded (exit 66) unless --create is given; remove exits 66 when the
      handler is not quarantined (on that control). add upgrades a file from before the
      quarantine list, as every writer does; list and remove read it as it is.
      """,
    arguments: ["action"], repeatsLastArgument: true,
    completingArguments: .choices(Action.allCases.map(\.rawValue)),
    options: SharedOptions.common + [control.spec, reason.spec, actor.spec, create.spec])

  /// `--control <name>`.
  static let control = Option<String>(
    "control", value: "name", help: "Only on this control (default: every control).")
  /// `--reason <text>`.
  static let reason = Option<String>("reason", value: "text", help: "Why (required by add).")
  /// `--actor <name>`.
  static let actor = Option<String>("actor", value: "name", help: "Who (default: $USER).")
  /// `--create`.
  static let create = Flag(
    "create", help: "add: quarantine it even if no session recorded the handler.")

  /// The options each action takes, besides `--db` and `--help`.
  private static let accepted: [Action: [OptionSpec]] = [
    .add: [control.spec, reason.spec, actor.spec, create.spec],
    .remove: [control.spec],
    .list: [SharedOptions.format.spec] + TerminalDisplay.options,
  ]

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let words = arguments.arguments
    guard let action = Action(rawValue: words[0]) else {
      throw UsageError(
        "Unknown action '\(words[0])'; expected "
          + Action.allCases.map(\.rawValue).joined(separator: ", "),
        command: spec.name)
    }
    if let stray = arguments.firstGiven(
      of: spec.options, except: [SharedOptions.db.spec] + (accepted[action] ?? []))?.name
    {
      throw UsageError(
        "The option '--\(stray)' does not apply to 'quarantine \(action.rawValue)'",
        command: spec.name)
    }
    let wanted = action == .list ? 1 : 2
    if words.count > wanted {
      throw UsageError("Unexpected argument '\(words[wanted])'", command: spec.name)
    }
    guard action == .list || words.count == 2 else {
      throw UsageError("Missing expected argument '<handler>'", command: spec.name)
    }
    // Names as reports show them are never blank (a blank recorded name reads as unknown).
    if action != .list, words[1].unicodeScalars.allSatisfy(\.properties.isWhitespace) {
      throw UsageError("The handler name is empty; name it as reports do", command: spec.name)
    }
    if let control = arguments.text(of: Self.control),
      control.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    {
      throw UsageError(
        "The control name is empty; leave --control out to cover every control",
        command: spec.name)
    }
    switch action {
    case .add: return try add(words[1], arguments, context: context)
    case .remove: return try remove(words[1], arguments, context: context)
    case .list: return try list(context: context)
    }
  }

  private static func add(_ handler: String, _ arguments: ParsedArguments, context: CommandContext)
    throws -> ExitCode
  {
    guard let reason = arguments.text(of: Self.reason), !reason.isEmpty else {
      throw UsageError("Missing value for '--reason <text>': say why", command: spec.name)
    }
    let control = arguments.text(of: Self.control)
    let path = context.databasePath
    if !arguments.has(Self.create) {
      guard try DatabaseFile.inspect(path) != .missing else {
        throw QueryError.databaseNotFound(path: path)
      }
      // Read first, so a refused name never upgrades (or touches) the file.
      let reader = QuarantineLedger(connection: try SleeveDatabase.openForReading(path: path))
      guard try reader.knows(handler: handler, control: control) else {
        throw QuarantineNotFound(
          "handler '\(handler)'\(on(control)) is not recorded in '\(path)'; check its name "
            + "('sleeve errors --session all') or pass --create")
      }
    }
    let store = try StoreWriter(path: path)
    let actor = SharedOptions.actor(Self.actor, in: arguments, context: context)
    let isNew = try store.quarantine(
      QuarantineEntry(handler: handler, control: control, reason: reason, actor: actor))
    context.console.out(
      TerminalText.escaped(
        (isNew ? "Quarantined" : "Updated the quarantine of") + " handler '\(handler)'"
          + (control.map { " on control '\($0)'" } ?? " on every control") + " (\(reason))"
          + (actor.map { ", by \($0)" } ?? "") + ".") + "\n")
    return .success
  }

  private static func remove(
    _ handler: String, _ arguments: ParsedArguments, context: CommandContext
  ) throws -> ExitCode {
    let control = arguments.text(of: Self.control)
    let entries = try context.openDatabase().quarantine()
    let name = RecordedText.capped(handler, to: .name)
    let wanted = control.map { RecordedText.capped($0, to: .name) }
    let notQuarantined = {
      let others = entries.filter { $0.handler == name }.map { entry in
        entry.control.map { "on control '\($0)'" } ?? "on every control"
      }
      return QuarantineNotFound(
        "handler '\(handler)' is not quarantined\(control.map { " on control '\($0)'" } ?? " on every control")"
          + (others.isEmpty
            ? "; list the quarantine with 'sleeve quarantine list'"
            : "; it is quarantined " + others.joined(separator: ", ")
              + " (pass --control to remove one)"))
    }
    // Read first, so removing what is not there never upgrades (or touches) the file.
    guard entries.contains(where: { $0.handler == name && $0.control == wanted }) else {
      throw notQuarantined()
    }
    let store = try StoreWriter(path: context.databasePath)
    guard try store.liftQuarantine(handler: handler, control: control) else {
      throw notQuarantined()
    }
    context.console.out(
      TerminalText.escaped(
        "Handler '\(handler)' is no longer quarantined"
          + (control.map { " on control '\($0)'" } ?? " on every control") + ".") + "\n")
    return .success
  }

  private static func list(context: CommandContext) throws -> ExitCode {
    let entries = try context.openDatabase().quarantine()
    context.print(
      AnswerView(
        header: [
          entries.isEmpty
            ? "Nothing is quarantined."
            : "\(entries.count) quarantined: check counts their failures as advisory."
        ], fields: [], rowsKey: "quarantine", columns: QuarantineEntry.columns, rows: entries))
    return .success
  }

  private static func on(_ control: String?) -> String {
    control.map { " on control '\($0)'" } ?? ""
  }
}

/// A handler `quarantine` cannot find: not recorded (add), or not quarantined (remove): exit 66.
struct QuarantineNotFound: CommandFailure, CustomStringConvertible {
  let description: String
  var exitCode: ExitCode { .notFound }
  init(_ description: String) { self.description = description }
}
