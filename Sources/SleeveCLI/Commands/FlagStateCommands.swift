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
        SharedOptions.db.spec,
        OptionSpec(
          "reason", value: "text",
          help: reasonRequired ? "Why (required)." : "Why (optional)."),
        OptionSpec("actor", value: "name", help: "Who (default: $USER)."),
        OptionSpec("create", help: "Record it even if the flag (or the database) is new."),
      ])
  }

  static func run(
    state: String, reasonRequired: Bool, _ arguments: ParsedArguments, context: CommandContext,
    rollout: RolloutPercentage? = nil
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
    let store = try StoreWriter(path: path)
    guard try create || store.knowsFlag(key) else {
      throw UnknownFlag(key: key, path: path)
    }
    let actor = arguments["actor"] ?? context.console.environment["USER"]
    try store.recordFlagChange(
      FlagLedger.Change(
        key: key, state: state, reason: reason, actor: actor,
        rolloutBasisPoints: rollout?.basisPoints))
    var now = "now \(state)"
    if let rollout {
      now = "now rolling out to \(rollout) of its units, " + (try unitSentence(of: key, path: path))
    }
    context.console.out(
      TerminalText.escaped(
        "Flag '\(key)' is \(now)" + (reason.map { " (\($0))" } ?? "")
          + (actor.map { ", by \($0)" } ?? "") + ".") + "\n")
    return .success
  }

  /// Which unit the flag's latest recorded definition assigns by, or the default it falls to.
  private static func unitSentence(of key: String, path: String) throws -> String {
    let plans = try RolloutRecords.plans(
      of: nil, connection: SleeveDatabase.openForReading(path: path))
    guard let unit = plans[key]?.unit else {
      return "by fire (the flag declares no unit: each fire is drawn afresh)"
    }
    return "by \(unit)"
  }
}

/// A flag the database has never seen: exit 66.
struct UnknownFlag: CommandFailure, CustomStringConvertible {
  let key: String
  let path: String
  var exitCode: ExitCode { .notFound }
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
    try FlagStateChange.run(
      state: RecordCodes.FlagChangeState.rolledBack.name, reasonRequired: true, arguments,
      context: context)
  }
}

/// `sleeve enable FLAG`.
enum EnableCommand: Command {
  static let spec = FlagStateChange.spec(
    name: "enable", abstract: "Enable a flag: gated handlers run their primary closure.",
    reasonRequired: false)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    try FlagStateChange.run(
      state: RecordCodes.FlagChangeState.enabled.name, reasonRequired: false, arguments,
      context: context)
  }
}

/// `sleeve rollout FLAG --percent P`.
enum RolloutCommand: Command {
  static let spec = CommandSpec(
    name: "rollout",
    abstract: "Roll a flag out to a percentage of its units, concurrently with the rest.",
    discussion: """
      Serves the primary closure to P% of the flag's units and the fallback to the others, at
      the same time, so the two cohorts compare under the same conditions. The unit is the
      flag definition's (fire, session or an app key such as a user id); a flag that declares
      none is rolled out per fire, and the output says so. A unit always gets the same
      variant at the same percentage, and raising the percentage only moves units from off
      to on (scripts/rollout-bucket reproduces an assignment). An unknown flag is an error
      (exit 66) unless --create is given.
      """,
    arguments: ["flag"],
    options: [
      SharedOptions.db.spec,
      OptionSpec("percent", value: "P", help: "The share served on: 0 to 100, e.g. 25 or 0.5."),
      OptionSpec("reason", value: "text", help: "Why (optional)."),
      OptionSpec("actor", value: "name", help: "Who (default: $USER)."),
      OptionSpec("create", help: "Record it even if the flag (or the database) is new."),
    ])

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    guard
      let percent = try context.value("percent", in: arguments, ValueParsers.rolloutPercent)
    else {
      throw UsageError("Missing value for '--percent <P>'", command: spec.name)
    }
    return try FlagStateChange.run(
      state: RecordCodes.FlagChangeState.rollingOut.name, reasonRequired: false, arguments,
      context: context,
      rollout: percent)
  }
}

/// `sleeve disable FLAG`.
enum DisableCommand: Command {
  static let spec = FlagStateChange.spec(
    name: "disable", abstract: "Disable a flag: gated handlers run their fallback.",
    reasonRequired: false)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    try FlagStateChange.run(
      state: RecordCodes.FlagChangeState.disabled.name, reasonRequired: false, arguments,
      context: context)
  }
}
