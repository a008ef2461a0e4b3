import SleeveQuery

/// `sleeve changes`: per handler, the commits where its latency or error rate changed level
/// on a branch (E-divisive means with Hunter's test, ``ChangePointSearch``).
enum ChangesCommand: Command {
  static let spec = CommandSpec(
    name: "changes",
    abstract: "Change points: the commits where a handler got slower or started failing more.",
    discussion: """
      Sessions are grouped by the commit they built (sessions without a commit are set aside)
      and commits ordered by their first session's start. Per handler (its control and name,
      as diff matches it) and metric, one value per commit over the commit's sessions pooled:
      the percentile of its latency, or its error rate (failed / ran). Each series is searched
      with E-divisive means (Matteson and James 2014) in windows of --window commits; a split
      counts when Student's t-test between the levels beside it gives p < --max-p and the
      change is at least --min-change (latency, relative; from summaries also above 2.19%,
      what two values within the histogram's ±1.083% of one value can differ by) or
      --min-error-change (error rate, in points), with each level at least --min-commits
      commits (Hunter's merge step, as Apache Otava runs it). Deterministic: no permutations.
      Newest change first. A change is new when its first commit is among the last
      --new-within commits; --format github warns for each new change at the handler's
      registration site. Every session the filters allow is read (default: --session all);
      narrow to a branch with --branch main.
      Exits 0 whatever it finds; 66 when no session matches.
      """,
    options: [SharedOptions.db.spec, JudgedFormat.option] + TerminalDisplay.options
      + SessionTerms.optionsDefaultingToAll.map(\.spec)
      + [SharedOptions.control.spec, SharedOptions.handler.spec, SharedOptions.flag.spec]
      + SharedOptions.method + [
        metric.spec, maxP.spec, minChange.spec, minErrorChange.spec, minCommits.spec,
        window.spec, newWithin.spec,
      ])

  /// The most commits a count option takes.
  static let maximumCount = 1_000_000

  /// `--metric`: which metrics, comma-separated, or `all`.
  static let metric = Option<[ChangeMetric]>(
    "metric", value: "metric",
    help: "p50, p95, p99, error-rate, a comma-separated list or all (default: p50,error-rate).",
    completion: .choices(ChangeMetric.allCases.map(\.rawValue) + ["all"])
  ) { text throws(ValueError) in try metrics(text) }
  /// `--max-p`.
  static let maxP = Option<Double>(
    "max-p", value: "p", help: "Largest p-value a change may have (default: 0.001).",
    completion: .none
  ) { text throws(ValueError) in
    let value = try ValueParsers.rate(text)
    guard value > 0, value < 1 else { throw ValueError("a p-value must be between 0 and 1") }
    return value
  }
  /// `--min-change`.
  static let minChange = Option<Double>(
    "min-change", value: "rate",
    help: "Smallest latency change that counts, relative (default: 5%).", completion: .none,
    parse: ValueParsers.rate)
  /// `--min-error-change`: the comparisons' option, one rule for both.
  static let minErrorChange = BaselineSelection.minErrorChange
  /// `--min-commits`.
  static let minCommits = count(
    "min-commits", minimum: 1, help: "Fewest commits each level must span (default: 3).")
  /// `--window`: at most ``maximumWindow`` (a window's table is window² numbers and its
  /// search grows with window³).
  static let window = Option<Int>(
    "window", value: "n", help: "Commits per window of the search, 2 to 1000 (default: 50).",
    completion: .none
  ) { text throws(ValueError) in try ValueParsers.count(text, minimum: 2, maximum: maximumWindow) }
  /// The widest window `--window` takes.
  static let maximumWindow = 1_000
  /// `--new-within`.
  static let newWithin = count(
    "new-within", minimum: 1,
    help: "A change is new when it starts in the last n commits (default: 10).")

  /// The default of `--new-within`.
  static let defaultNewWithin = 10

  /// A count option, `minimum` to ``maximumCount``.
  private static func count(_ name: String, minimum: Int, help: String) -> Option<Int> {
    Option(name, value: "n", help: help, completion: .none) { text throws(ValueError) in
      try ValueParsers.count(text, minimum: minimum, maximum: maximumCount)
    }
  }

  /// `p50,error-rate` or `all`: the metrics named, in the order given, each once.
  static func metrics(_ text: String) throws(ValueError) -> [ChangeMetric] {
    if text == "all" { return ChangeMetric.allCases }
    var chosen: [ChangeMetric] = []
    for name in text.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false) {
      let name = String(String.UnicodeScalarView(name))
      guard let metric = ChangeMetric(rawValue: name) else {
        throw ValueError(
          "expected p50, p95, p99, error-rate or all, separated by commas; got '\(name)'")
      }
      if !chosen.contains(metric) { chosen.append(metric) }
    }
    return chosen
  }

  static var usesSharedFormat: Bool { false }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    var context = context
    let format = try JudgedFormat.parse(arguments, context: &context)
    var filter = try SharedOptions.filter(arguments, context: context, defaultSession: .all)
    filter.method = try SharedOptions.method(arguments, context: context)
    let options = try Self.options(arguments, context: context)
    let newWithin = try context.value(newWithin, in: arguments) ?? defaultNewWithin
    let answer = try context.openDatabase().changes(matching: filter, options: options)
    for note in answer.unmatchedFilters {
      context.console.error("Note: \(TerminalText.escaped(note))\n")
    }
    let recent = Set(answer.commits.suffix(newWithin))
    let rows = answer.changes.map {
      ChangeRow(change: $0, isNew: recent.contains($0.firstCommit.commit))
    }
    let header = summary(answer, rows: rows, newWithin: newWithin)
    let notes = ["Method: \(answer.method)"] + Self.notes(answer)
    if let ci = format.ci {
      let markdown = summaryMarkdown(rows, header: header, notes: notes)
      try ci.emit(CIReport.changes(rows, summary: header, markdown: markdown), context: context)
    } else if format == .markdown {
      context.console.out(summaryMarkdown(rows, header: header, notes: notes))
    } else {
      context.print(
        AnswerView(
          header: [header] + notes,
          fields: [
            ("method", .string(answer.method)),
            (
              "options",
              .object([
                ("metrics", .array(options.metrics.map { .string($0.rawValue) })),
                ("maxP", .number(options.maxP)),
                ("minChange", .number(options.minLatencyChange)),
                ("minErrorChange", .number(options.minErrorChange)),
                ("minCommits", .integer(options.minCommits)),
                ("window", .integer(options.window)),
                ("newWithin", .integer(newWithin)),
              ])
            ),
            ("relativeError", .number(answer.relativeError)),
            ("commits", .array(answer.commits.map(JSONValue.string))),
            ("sessions", .array(answer.sessions.map(JSONValue.int))),
            ("sessionsWithoutCommit", .array(answer.sessionsWithoutCommit.map(JSONValue.int))),
          ], rowsKey: "changes", columns: ChangeRow.columns, rows: rows))
    }
    return .success
  }

  private static func options(_ arguments: ParsedArguments, context: CommandContext) throws
    -> ChangeOptions
  {
    var options = ChangeOptions()
    options.metrics = try context.value(metric, in: arguments) ?? options.metrics
    options.maxP = try context.value(maxP, in: arguments) ?? options.maxP
    options.minLatencyChange =
      try context.value(minChange, in: arguments) ?? options.minLatencyChange
    options.minErrorChange =
      try context.value(minErrorChange, in: arguments) ?? options.minErrorChange
    options.minCommits = try context.value(minCommits, in: arguments) ?? options.minCommits
    options.window = try context.value(window, in: arguments) ?? options.window
    return options
  }

  /// `3 changes (1 new in the last 10 commits) in 40 handler series over 120 commits of 240
  /// sessions.`
  private static func summary(_ answer: ChangesAnswer, rows: [ChangeRow], newWithin: Int)
    -> String
  {
    let plural = LintReportText.plural
    return "\(plural(rows.count, "change")) (\(rows.count { $0.isNew }) new in the last "
      + "\(plural(newWithin, "commit"))) in \(answer.series.count) handler series over "
      + "\(plural(answer.commits.count, "commit")) of \(plural(answer.sessions.count, "session"))."
  }

  /// What a scheduled job posts (`--format markdown`, and the job summary of `github`): the
  /// summary line in bold, the notes, the new changes as a table, and the earlier ones folded
  /// under `<details>`; every cell escaped with `MarkdownText`.
  private static func summaryMarkdown(_ rows: [ChangeRow], header: String, notes: [String])
    -> String
  {
    let fresh = rows.filter(\.isNew)
    let earlier = rows.filter { !$0.isNew }
    var out = "### sleeve changes\n\n**\(MarkdownText.escaped(header))**\n\n"
    out += notes.map { MarkdownText.escaped($0) + "\n\n" }.joined()
    if !fresh.isEmpty { out += ChangeRow.columns.table(fresh, for: .markdown).markdown + "\n" }
    if !earlier.isEmpty {
      out += "<details><summary>\(LintReportText.plural(earlier.count, "earlier change"))"
      out += "</summary>\n\n" + ChangeRow.columns.table(earlier, for: .markdown).markdown
      out += "\n</details>\n"
    }
    return out
  }

  /// The notes under the summary: sessions set aside.
  private static func notes(_ answer: ChangesAnswer) -> [String] {
    let without = answer.sessionsWithoutCommit
    guard !without.isEmpty else { return [] }
    return [
      "\(LintReportText.plural(without.count, "session")) recorded no commit and are in no "
        + "series: " + without.prefix(10).map(String.init).joined(separator: ", ")
        + (without.count > 10 ? ", …" : "") + "."
    ]
  }
}
