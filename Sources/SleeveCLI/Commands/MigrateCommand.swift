import SleeveStore

/// `sleeve migrate`: bring a database to this binary's schema, or show where it stands.
enum MigrateCommand: Command {
  static let spec = CommandSpec(
    name: "migrate", abstract: "Apply pending schema migrations (or show them with --status).",
    options: [
      SharedOptions.db,
      OptionSpec("status", help: "Show applied and pending migrations without changing anything."),
    ])

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let path = context.databasePath
    if arguments.has("status") {
      let connection = try Connection(path: path, mode: .readOnly)
      let state = try Migrator.state(of: connection)
      var lines = state.applied.map { "applied  \($0)" } + state.pending.map { "pending  \($0)" }
      lines += state.unknown.map { "unknown  \($0) (from a newer Sleeve)" }
      context.console.out(lines.joined(separator: "\n") + "\n")
      return state.unknown.isEmpty ? .success : .dataError
    }
    let connection = try Connection(path: path)
    let applied = try Migrator.migrate(connection)
    context.console.out(
      applied.isEmpty
        ? "'\(path)' is up to date.\n"
        : applied.map { "applied  \($0)" }.joined(separator: "\n") + "\n")
    return .success
  }
}
