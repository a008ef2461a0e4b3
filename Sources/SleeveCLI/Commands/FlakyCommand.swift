import SleeveQuery

/// `sleeve flaky`: per handler, whether sessions of one commit disagreed about it (flaky),
/// whether it fails most of its runs (broken), or was flaky and has run clean since (cleared).
enum FlakyCommand: Command {
  static let spec = CommandSpec(
    name: "flaky",
    abstract: "Flaky handlers: sessions of one commit disagree (some failed it, some did not).",
    discussion: """
      Sessions are grouped by the commit they built and, where a session recorded one, the
      test it ran; sessions without a commit are not judged. Per handler (its control and
      name), counting only the sessions where it ran:
        broken      it failed more than --broken-share of its runs in every session of its
                    last --broken-commits commits (this wins over flaky);
        flaky       in some group of 2 or more sessions, some failed it and some did not;
        cleared     flaky, but its last --clear-after sessions had no failure;
        consistent  none of these (a steady low failure rate is for thresholds and diff).
      Flake rate = groups where its sessions disagreed / groups where it ran in 2 or more
      sessions. Only flaky, broken and cleared handlers are listed unless --all is given.
      Every session the filters allow is read (default: --session all).
      Exits 0 whatever it finds (flaky is information); 66 when no session matches.
      """,
    options: [SharedOptions.db.spec, JudgedFormat.option] + TerminalDisplay.options
      + SharedOptions.filters + [
        window.spec, brokenShare.spec, brokenCommits.spec, clearAfter.spec, all.spec,
      ])

  /// The most commits or sessions a count option takes.
  static let maximumCount = 1_000_000

  /// `--window n`.
  static let window = count(
    "window", help: "Judge the n most recent commits, by their latest session (default 20).")
  /// `--broken-share rate`.
  static let brokenShare = Option<Double>(
    "broken-share", value: "rate",
    help: "Broken above this share of failed runs, e.g. 0.5 or 50% (default 50%).",
    completion: .none, parse: ValueParsers.rate)
  /// `--broken-commits n`.
  static let brokenCommits = count(
    "broken-commits", help: "Broken over every session of its last n commits (default 3).")
  /// `--clear-after n`.
  static let clearAfter = count(
    "clear-after", help: "Cleared after its last n sessions had no failure (default 5).")
  /// `--all`.
  static let all = Flag("all", help: "List consistent handlers too.")

  /// A count option, 1 to ``maximumCount``.
  private static func count(_ name: String, help: String) -> Option<Int> {
    Option(name, value: "n", help: help, completion: .none) { text throws(ValueError) in
      try ValueParsers.count(text, minimum: 1, maximum: maximumCount)
    }
  }

  static var usesSharedFormat: Bool { false }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    var context = context
    let format = try JudgedFormat.parse(arguments, context: &context)
    let filter = try SharedOptions.filter(arguments, context: context, defaultSession: .all)
    let options = try Self.options(arguments, context: context)
    let answer = try context.openDatabase().flakyAnswer(matching: filter, options: options)
    for note in answer.unmatchedFilters {
      context.console.error("Note: \(TerminalText.escaped(note))\n")
    }
    let analysis = answer.analysis
    let listedAll = arguments.has(all)
    let listed = answer.rows.filter { listedAll || $0.finding.verdict != .consistent }
    let header = summary(analysis, listedAll: listedAll)
    let notes = ["Method: \(FlakyAnalysis.method)."] + analysis.notes
    if let ci = format.ci {
      let markdown =
        "### sleeve flaky\n\n**\(MarkdownText.escaped(header))**\n\n"
        + notes.map { MarkdownText.escaped($0) + "\n" }.joined() + "\n"
        + FlakyAnswer.Row.columns.table(listed).markdown
      try ci.emit(CIReport.flaky(listed, summary: header, markdown: markdown), context: context)
    } else {
      context.print(
        AnswerView(
          header: [header] + notes,
          fields: [
            ("method", .string(FlakyAnalysis.method)),
            (
              "options",
              .object([
                ("window", .integer(analysis.options.window)),
                ("brokenShare", .number(analysis.options.brokenShare)),
                ("brokenCommits", .integer(analysis.options.brokenCommits)),
                ("clearAfter", .integer(analysis.options.clearAfter)),
              ])
            ),
            ("commits", .array(analysis.commits.map(JSONValue.string))),
            ("sessions", .array(analysis.sessions.map(JSONValue.int))),
            ("sessionsWithoutCommit", .array(analysis.sessionsWithoutCommit.map(JSONValue.int))),
            ("sessionsOutsideWindow", .array(analysis.sessionsOutsideWindow.map(JSONValue.int))),
            ("notes", .array(analysis.notes.map(JSONValue.string))),
          ], rowsKey: "handlers", columns: FlakyAnswer.Row.columns, rows: listed))
    }
    return .success
  }

  private static func options(_ arguments: ParsedArguments, context: CommandContext) throws
    -> FlakyAnalysis.Options
  {
    var options = FlakyAnalysis.Options()
    options.window = try context.value(window, in: arguments) ?? options.window
    options.brokenCommits = try context.value(brokenCommits, in: arguments) ?? options.brokenCommits
    options.clearAfter = try context.value(clearAfter, in: arguments) ?? options.clearAfter
    options.brokenShare = try context.value(brokenShare, in: arguments) ?? options.brokenShare
    return options
  }

  /// `12 sessions of the last 4 commits judged: 1 flaky, 1 broken, 0 cleared, 3 consistent
  /// (not listed; --all lists them).`
  private static func summary(_ analysis: FlakyAnalysis, listedAll: Bool) -> String {
    let counts = FlakyAnalysis.Verdict.allCases.map { verdict in
      "\(analysis.findings(verdict).count) \(verdict.rawValue)"
    }
    let commits = analysis.commits.count
    return "\(analysis.sessions.count) session\(analysis.sessions.count == 1 ? "" : "s") of "
      + "the last \(commits) commit\(commits == 1 ? "" : "s") judged: "
      + counts.joined(separator: ", ")
      + (listedAll ? "." : " (not listed; --all lists them).")
  }
}
