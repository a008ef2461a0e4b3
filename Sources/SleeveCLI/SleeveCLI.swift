import Foundation
import SleeveExport
import SleeveHistory
import SleeveQuery
import SleeveStore

/// The `sleeve` command: parses the command line, runs a subcommand, maps every failure to a
/// one-line `Error: …` and a documented exit code.
public enum SleeveCLI {
  /// Sleeve's version, printed by `--version`.
  public static var version: String { Sleeve.version }

  static let commands: [any Command.Type] = [
    SessionsCommand.self, ErrorsCommand.self, LatencyCommand.self, FlagsCommand.self,
    DiffCommand.self, CheckCommand.self, FlakyCommand.self, ChangesCommand.self,
    QuarantineCommand.self,
    LintCommand.self,
    ReportCommand.self, RollbackCommand.self, RolloutCommand.self, EnableCommand.self,
    DisableCommand.self, MergeCommand.self, ExportCommand.self, SummarizeCommand.self,
    PruneCommand.self, MigrateCommand.self, PublishCommand.self,
    DemoCommand.self, CompletionsCommand.self, CompleteCommand.self,
  ]

  /// Runs the command line `arguments` (without the program name) against the real standard
  /// streams and environment; returns the exit status.
  ///
  /// SIGPIPE is ignored first: a reader that goes away (`sleeve export | head`) makes the next
  /// write fail with EPIPE, which ends the command with exit 74 and one line, never a signal.
  public static func main(arguments: [String], environment: [String: String]) async -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    return await run(arguments, console: .standard(environment: environment)).rawValue
  }

  /// Runs the command line with `console` for output and environment. A command whose
  /// standard output could not be written exits 74, whatever it returned.
  static func run(_ arguments: [String], console: Console) async -> ExitCode {
    if arguments.first == CompleteCommand.spec.name {
      // The completion helper prints values or nothing, and always exits 0 (README).
      let quiet = Console.capturing(environment: console.environment)
      _ = await runCommand(arguments, console: quiet)
      if quiet.capturedError.isEmpty { console.out(quiet.capturedOutput) }
      return .success
    }
    let code = await runCommand(arguments, console: console)
    // A command that already failed has said why (an export stopped by the failed write says
    // so itself); one that answered (0, or check's 1 and 2) lost its answer: that is 74.
    guard let failure = console.outputFailure, [.success, .breach, .insufficient].contains(code)
    else { return code }
    console.error("Error: cannot write to standard output (\(failure))\n")
    return .ioError
  }

  private static func runCommand(_ arguments: [String], console: Console) async -> ExitCode {
    let specs = commands.map { $0.spec }
    var commandName: String?
    do {
      switch try ArgumentParser.parse(arguments, commands: specs) {
      case .version:
        console.out(version + "\n")
        return .success
      case .help(let name):
        if let name, let spec = specs.first(where: { $0.name == name }) {
          console.out(HelpFormatter.help(for: spec))
        } else {
          console.out(HelpFormatter.help(commands: specs, shared: ArgumentParser.globalOptions))
        }
        return .success
      case .run(let name, let parsed):
        commandName = name
        guard let command = commands.first(where: { $0.spec.name == name }) else {
          throw ArgumentParser.unknownSubcommand(name, commands: specs)
        }
        let spec = command.spec
        let probe = CommandContext(
          console: console, databasePath: "", format: .table, command: spec)
        let format =
          command.usesSharedFormat
          ? try probe.value(SharedOptions.format, in: parsed) ?? .table : .table
        let path =
          parsed.text(of: SharedOptions.db)
          ?? console.environment["SLEEVE_DB"].flatMap { $0.isEmpty ? nil : $0 } ?? "sleeve.sqlite"
        var context = CommandContext(
          console: console, databasePath: path, format: format, command: spec)
        if spec.accepts(TerminalDisplay.color.spec) {
          context.display = try TerminalDisplay.resolve(
            parsed, format: format, console: console, command: spec)
        }
        // A reading command given a shared history answers from a mirror of it: a scratch
        // file holding what the merged and pruned files would (removed after the command).
        guard spec.option(named: SharedOptions.db.spec.name) != nil, HistoryLocation.isHistory(path)
        else {
          return try await command.run(parsed, context: context)
        }
        try HistoryOptions.refuseUnlessSupported(name)
        context.history = try HistoryOptions.location(path, option: "db", command: name)
        if let writer = command.writesLocalFile(parsed) {
          try context.requireLocalFile(for: writer)
        }
        guard HistoryOptions.readers.contains(name) else {
          return try await command.run(parsed, context: context)
        }
        let mirror = try HistoryMirror.whole(context.history!)
        context.databasePath = mirror.path
        let code = try await command.run(parsed, context: context)
        withExtendedLifetime(mirror) {}
        return code
      }
    } catch let error as UsageError {
      let command = error.command ?? commandName
      let spec = specs.first { $0.name == command }
      console.error("Error: \(TerminalText.escaped(error.message))\n")
      console.error(
        "Usage: \(spec?.usage ?? "sleeve [--db <path>] [--format <format>] <subcommand>")\n")
      console.error(
        "  See 'sleeve \(spec.map { "\($0.name) " } ?? "")--help' for more information.\n")
      return .usage
    } catch {
      let (code, message) = failure(error)
      if let message { console.error("Error: \(TerminalText.escaped(message))\n") }
      return code
    }
  }

  /// The exit code and the one-line message (`nil`: already printed) of a failure that is not
  /// a usage error, as the error itself names them (`CommandFailure`). An error that does not
  /// adopt the protocol is a programming mistake (`ExitCodeMappingTests` lists every type the
  /// command line can see): it is reported as an I/O error, 74, with its description.
  static func failure(_ error: any Error) -> (code: ExitCode, message: String?) {
    guard let failure = error as? any CommandFailure else {
      return (.ioError, String(describing: error))
    }
    return (failure.exitCode, failure.failureMessage)
  }
}
