import Foundation
import SleeveQuery

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sleeve completions bash|zsh|fish`: prints a completion script for the shell.
enum CompletionsCommand: Command {
  /// The shells with a script.
  enum Shell: String, CaseIterable {
    case bash, zsh, fish
  }

  static let spec = CommandSpec(
    name: "completions", abstract: "Print a completion script for bash, zsh or fish.",
    discussion: """
      Completes subcommands, options and their values (--format, --by, --color), and, read
      from the database named by --db or $SLEEVE_DB, session ids and UUIDs, handler names and
      flag keys. bash: source <(sleeve completions bash); zsh (after compinit):
      source <(sleeve completions zsh); fish: sleeve completions fish | source.
      """,
    arguments: ["shell"], options: [])

  static var usesSharedFormat: Bool { false }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let name = arguments.arguments[0]
    guard let shell = Shell(rawValue: name) else {
      throw UsageError(
        "Unknown shell '\(name)': "
          + Suggestion.expectedOneOf(Shell.allCases.map(\.rawValue), typed: name),
        command: spec.name)
    }
    let model = CompletionModel(specs: SleeveCLI.commands.map { $0.spec })
    switch shell {
    case .bash: context.console.out(BashCompletion.script(model))
    case .zsh: context.console.out(ZshCompletion.script(model))
    case .fish: context.console.out(FishCompletion.script(model))
    }
    return .success
  }
}

/// `sleeve __complete sessions|handlers|flags`: the recorded values the completion scripts
/// offer, one a line. Never fails loudly and never hangs: it prints nothing (exit 0) for an
/// unknown kind, a path that is not a regular file (a FIFO would block the open), or any error;
/// it gives up on a locked file after half of `timeLimit` and ends itself after `timeLimit`
/// seconds, whatever it is doing; it prints at most `limit` values, and none that holds a
/// control or a line break.
enum CompleteCommand: Command {
  /// The most values printed.
  static let limit = 1_000
  /// Seconds before the helper ends itself, whatever it is doing.
  static let timeLimit: UInt32 = 2

  static let spec = CommandSpec(
    name: "__complete", abstract: "The values the completion scripts offer (not for people).",
    arguments: ["kind"], options: [SharedOptions.db.spec], listedInHelp: false)

  static var usesSharedFormat: Bool { false }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    if context.console.isStandard {
      // A stuck read (a lock held, a slow mount) must not hang the shell: end quietly. A
      // thread of its own keeps the bound (a SIGALRM waited for a thread that does not block
      // it, and the concurrency pool's threads block signals: it came after the busy wait).
      Thread.detachNewThread {
        sleep(timeLimit)
        _exit(0)
      }
    }
    let values = (try? self.values(of: arguments.arguments[0], context: context)) ?? []
    var seen: Set<String> = []
    let shown = values.filter { value in
      !value.isEmpty && !value.unicodeScalars.contains { TerminalText.visibleForm(of: $0) != nil }
        && seen.insert(value).inserted
    }
    let text = shown.prefix(limit).map { $0 + "\n" }.joined()
    context.console.out(text)
    return .success
  }

  /// The values of `kind`, or `[]` when the database is not a regular file.
  private static func values(of kind: String, context: CommandContext) throws -> [String] {
    guard ["sessions", "handlers", "flags"].contains(kind), isRegularFile(context.databasePath)
    else { return [] }
    // A locked file is given up within half the time limit, quietly.
    let database = try context.openDatabase(busyTimeout: .milliseconds(Int(timeLimit) * 500))
    var all = QueryFilter()
    all.session = .all
    switch kind {
    case "sessions":
      return try database.sessions(matching: all).flatMap { [String($0.id), $0.uuid] }
    case "handlers":
      return try database.errorRates(matching: all, by: .handler).map(\.key)
    default:
      return try database.flags(matching: all).map(\.key)
    }
  }

  /// Whether `path` names a regular file (following links).
  private static func isRegularFile(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }
}
