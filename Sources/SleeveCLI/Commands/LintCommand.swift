import SleeveQuery
import SleeveStore

/// `sleeve lint`: the closure-sleeve pitfalls found in the selected sessions, and
/// `sleeve lint suppress|unsuppress|suppressions`, the suppressions kept in the database
/// (`LintSuppressionLedger`).
enum LintCommand: Command {
  /// What the first argument asks for; none runs the checks.
  enum Action: String, CaseIterable {
    case suppress, unsuppress, suppressions
  }

  static let spec = CommandSpec(
    name: "lint",
    abstract: "Find closure-sleeve pitfalls in recorded sessions: exit 0 clean, 1 when one fires.",
    discussion: """
        sleeve lint [<selection>] [--format <format>] [--disable <check>]... [--fail-on <severity>]
        sleeve lint suppress <check> <site> --reason <text> [--actor <name>]
        sleeve lint unsuppress <check> <site>
        sleeve lint suppressions [--format <format>]

      Each finding names its check, severity, control, handler and registration site, with
      the evidence. The checks (id, severity):
      \(checkList)
      --disable skips a check (repeat it for several). A suppression covers one check at one
      site: a registration site as the site column shows it (App/File.swift:42) or, for a
      control's own finding (dead, rage and error interactions, nesting), the control's
      name; suppressed findings never fail, are counted under the table and listed by
      --format json. Suppressing it again updates the reason, actor and time; a site no
      session recorded is suppressed all the same, with a note; unsuppress exits 66 when
      it is not there.
      Sessions recorded before schema 0004 are examined by the checks that do not need
      interactions or registration lifetimes only, and the output says so.
      Exit codes: 0 when no active finding is at --fail-on severity or worse (default
      error), 1 when one is; 64 usage; 65 not a Sleeve database (or damaged, newer); 66
      database, session or suppression not found; 74 I/O error.
      """,
    arguments: ["action"], repeatsLastArgument: true, argumentsOptional: true,
    options: [SharedOptions.db.spec, JudgedFormat.option] + TerminalDisplay.options
      + SharedOptions.filters + [
        OptionSpec("disable", value: "check", help: "Skip this check (repeatable)."),
        OptionSpec(
          "fail-on", value: "severity",
          help: "Exit 1 on an active finding this serious or more: error (default), warning, note."),
        OptionSpec(
          "frame-budget", value: "ms",
          help: "A synchronous handler stalls above this at p99 or max (default 16.7)."),
        OptionSpec(
          "rage-count", value: "n", help: "A rage burst is at least n interactions (default 3)..."),
        OptionSpec(
          "rage-window", value: "ms", help: "... on one control within this time (default 1000)."),
        OptionSpec("out", value: "file", help: "Write the output to a file instead of stdout."),
        OptionSpec("reason", value: "text", help: "suppress: why (required)."),
        OptionSpec("actor", value: "name", help: "suppress: who (default: $USER)."),
      ])

  /// The checks, one line each, as the help lists them.
  private static var checkList: String {
    let width = (LintCheck.allCases.map(\.id.count).max() ?? 0) + 2
    return LintCheck.allCases.map { check in
      "  " + check.id + String(repeating: " ", count: width - check.id.count)
        + check.severity.rawValue
    }.joined(separator: "\n")
  }

  /// The most interactions `--rage-count` takes.
  static let maximumRageCount = 1_000_000

  static var usesSharedFormat: Bool { false }

  /// The options each action takes, besides `--db` and `--help`.
  private static let accepted: [Action: Set<String>] = [
    .suppress: ["reason", "actor"],
    .unsuppress: [],
    .suppressions: Set(["format"] + TerminalDisplay.options.map(\.name)),
  ]

  /// The options only the actions take.
  private static let actionOnly: Set<String> = ["reason", "actor"]

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let words = arguments.arguments
    let given = Set(arguments.values.keys).union(arguments.flags).subtracting(["db"])
    guard let first = words.first else {
      if let stray = given.intersection(actionOnly).sorted().first {
        throw UsageError(
          "The option '--\(stray)' applies to 'lint suppress'", command: spec.name)
      }
      return try runChecks(arguments, context: context)
    }
    guard let action = Action(rawValue: first) else {
      throw UsageError(
        "Unknown action '\(first)'; expected "
          + Action.allCases.map(\.rawValue).joined(separator: ", ")
          + " (or none, to run the checks)", command: spec.name)
    }
    if let stray = given.subtracting(accepted[action] ?? []).sorted().first {
      throw UsageError(
        "The option '--\(stray)' does not apply to 'lint \(action.rawValue)'",
        command: spec.name)
    }
    let wanted = action == .suppressions ? 1 : 3
    if words.count > wanted {
      throw UsageError("Unexpected argument '\(words[wanted])'", command: spec.name)
    }
    guard words.count == wanted else {
      throw UsageError(
        "Missing expected argument '<\(words.count == 1 ? "check" : "site")>'",
        command: spec.name)
    }
    switch action {
    case .suppress:
      return try suppress(
        check: try check(words[1]), site: try site(words[2]), arguments, context: context)
    case .unsuppress:
      return try unsuppress(
        check: try check(words[1]), site: try site(words[2]), context: context)
    case .suppressions:
      return try listSuppressions(arguments, context: context)
    }
  }

  /// The check whose id is `text`, else a usage error listing the ids.
  static func check(_ text: String, option: String? = nil) throws -> LintCheck {
    guard let check = LintCheck(rawValue: text) else {
      throw UsageError(
        "Unknown check '\(text)'\(option.map { " for '--\($0)'" } ?? ""); "
          + Suggestion.expectedOneOf(LintCheck.allCases.map(\.id), typed: text),
        command: spec.name)
    }
    return check
  }

  /// A site as given: never blank (a recorded site or control name never is).
  private static func site(_ text: String) throws -> String {
    guard !text.unicodeScalars.allSatisfy(\.properties.isWhitespace) else {
      throw UsageError(
        "The site is empty; give a registration site (App/File.swift:42) or a control's name",
        command: spec.name)
    }
    return text
  }
}
