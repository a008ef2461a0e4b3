import Foundation
import SleeveCore
import SleeveQuery
import SleeveStore

/// `sleeve rollback`, `sleeve enable`, `sleeve disable`: record a flag state change in the
/// database, so the next session that reads its flags from this file (`DatabaseFlagProvider`)
/// serves it. No code change needed.
enum FlagStateChange {
  static func spec(name: String, abstract: String, reasonRequired: Bool) -> CommandSpec {
    CommandSpec(
      name: name, abstract: abstract,
      discussion: "Records the change with the time, reason and actor. An unknown flag is an\n"
        + "error (exit 66) unless --create is given.",
      arguments: ["flag"],
      options: [
        SharedOptions.db,
        OptionSpec(
          "reason", value: "text",
          help: reasonRequired ? "Why (required)." : "Why (optional)."),
        OptionSpec("actor", value: "name", help: "Who (default: $USER)."),
        OptionSpec("create", help: "Record it even if the flag (or the database) is new."),
      ])
  }

  static func run(
    state: String, reasonRequired: Bool, _ arguments: ParsedArguments, context: CommandContext
  ) throws -> ExitCode {
    let key = arguments.arguments[0]
    if let problem = FlagKey.problem(with: key) {
      throw UsageError(
        "The value '\(key)' is not a flag key: \(problem)", command: context.command.name)
    }
    let reason = arguments["reason"]
    if reasonRequired, reason?.isEmpty != false {
      throw UsageError(
        "Missing value for '--reason <text>': say why", command: context.command.name)
    }
    let create = arguments.has("create")
    let path = context.databasePath
    guard try create || DatabaseFile.inspect(path) != .missing else {
      throw QueryError.databaseNotFound(path: path)
    }
    let ledger = FlagLedger(connection: try SleeveDatabase.openForWriting(path: path))
    guard try create || ledger.knows(key) else {
      throw UnknownFlag(key: key, path: path)
    }
    let actor = arguments["actor"] ?? context.console.environment["USER"]
    try ledger.record(FlagLedger.Change(key: key, state: state, reason: reason, actor: actor))
    context.console.out(
      TerminalText.escaped(
        "Flag '\(key)' is now \(state)" + (reason.map { " (\($0))" } ?? "")
          + (actor.map { ", by \($0)" } ?? "") + ".") + "\n")
    return .success
  }
}

/// A flag the database has never seen.
struct UnknownFlag: Error, CustomStringConvertible {
  let key: String
  let path: String
  var description: String {
    "flag '\(key)' is unknown in '\(path)'; check the key ('sleeve flags --session all') "
      + "or pass --create"
  }
}

/// `sleeve rollback FLAG --reason TEXT`.
enum RollbackCommand: Command {
  static let spec = FlagStateChange.spec(
    name: "rollback",
    abstract: "Roll a flag back (the kill switch): gated handlers run their fallback.",
    reasonRequired: true)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    try FlagStateChange.run(state: "rolledBack", reasonRequired: true, arguments, context: context)
  }
}

/// `sleeve enable FLAG`.
enum EnableCommand: Command {
  static let spec = FlagStateChange.spec(
    name: "enable", abstract: "Enable a flag: gated handlers run their primary closure.",
    reasonRequired: false)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    try FlagStateChange.run(state: "enabled", reasonRequired: false, arguments, context: context)
  }
}

/// `sleeve disable FLAG`.
enum DisableCommand: Command {
  static let spec = FlagStateChange.spec(
    name: "disable", abstract: "Disable a flag: gated handlers run their fallback.",
    reasonRequired: false)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    try FlagStateChange.run(state: "disabled", reasonRequired: false, arguments, context: context)
  }
}
