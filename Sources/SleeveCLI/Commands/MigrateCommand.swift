import SleeveHistory
import SleeveQuery
import SleeveStore

/// `sleeve migrate`: bring a database to this binary's schema, or show where it stands.
enum MigrateCommand: Command {
  static let spec = CommandSpec(
    name: "migrate", abstract: "Apply pending schema migrations (or show them with --status).",
    options: [SharedOptions.db.spec, status.spec])

  /// `--status`.
  static let status = Flag(
    "status", help: "Show applied and pending migrations without changing anything.")

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    if let history = context.history { return try migrate(history, arguments, context: context) }
    let path = context.databasePath
    if arguments.has(Self.status) {
      let state: Migrator.State
      switch try DatabaseFile.inspect(path) {
      case .missing: throw QueryError.databaseNotFound(path: path)
      case .empty: state = Migrator.State.unmigrated
      case .sqlite:
        state = try SleeveDatabase.migrationState(of: Connection(path: path, mode: .readOnly))
      }
      var lines = state.applied.map { "applied  \($0)" } + state.pending.map { "pending  \($0)" }
      lines += state.unknown.map { "unknown  \($0) (from a newer Sleeve)" }
      context.console.out(lines.map { TerminalText.escaped($0) + "\n" }.joined())
      guard state.unknown.isEmpty else {
        throw StoreError.newerSchema(path: path, unknown: state.unknown)
      }
      return .success
    }
    let applied = try StoreWriter(path: path).appliedMigrations
    context.console.out(
      applied.isEmpty
        ? "'\(TerminalText.escaped(path))' is up to date.\n"
        : applied.map { "applied  \($0)" }.joined(separator: "\n") + "\n")
    return .success
  }

  /// `sleeve migrate --db URL`: creates or upgrades a shared history's schema (or shows it).
  private static func migrate(
    _ history: HistoryLocation, _ arguments: ParsedArguments, context: CommandContext
  ) throws -> ExitCode {
    if arguments.has(Self.status) {
      let state = try HistorySchema.status(of: history)
      var lines = state.applied.map { "applied  \($0)" } + state.pending.map { "pending  \($0)" }
      lines += state.unknown.map { "unknown  \($0) (from a newer Sleeve)" }
      context.console.out(lines.map { TerminalText.escaped($0) + "\n" }.joined())
      try HistorySchema.refuseNewer(state, location: history)
      return .success
    }
    let applied = try HistorySchema.migrate(history, unixNanoseconds: WallClock.unixNanoseconds())
    context.console.out(
      applied.isEmpty
        ? "'\(TerminalText.escaped(history.redacted))' is up to date.\n"
        : applied.map { "applied  \($0)" }.joined(separator: "\n") + "\n")
    return .success
  }
}
