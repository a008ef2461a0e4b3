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
        OptionSpec(
          "window", value: "n",
          help: "Judge the n most recent commits, by their latest session (default 20)."),
        OptionSpec(
          "broken-share", value: "rate",
          help: "Broken above this share of failed runs, e.g. 0.5 or 50% (default 50%)."),
        OptionSpec(
          "broken-commits", value: "n",
          help: "Broken over every session of its last n commits (default 3)."),
        OptionSpec(
          "clear-after", value: "n",
          help: "Cleared after its last n sessions had no failure (default 5)."),
        OptionSpec("all", help: "List consistent handlers too."),
      ])

  /// The most commits or sessions a count option takes.
  static let maximumCount = 1_000_000

  static var usesSharedFormat: Bool { false }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    var context = context
    let format = try JudgedFormat.parse(arguments, context: &context)
    let filter = try SharedOptions.filter(arguments, context: context, defaultSession: .all)
    let options = try Self.options(arguments, context: context)
    let database = try context.openDatabase()
    let (sessions, tallies, quarantine) = try database.snapshot {
      let sessions = try database.sessions(matching: filter)
      try context.noteUnmatchedFilters(filter, in: database)
      // Only the window's sessions are read; the rest are named in the notes.
      let judged = FlakyAnalysis.judgedSessions(of: sessions, options: options)
      return (
        sessions,
        try database.tallies(of: judged, filter: filter, by: .handler, collectDurations: false),
        try database.quarantine()
      )
    }
    let analysis = FlakyAnalysis(tallies, selected: sessions, options: options)
    let listed = analysis.findings.filter { arguments.has("all") || $0.verdict != .consistent }
    let quarantined = { (finding: FlakyAnalysis.Finding) in
      quarantine.contains { $0.matches(finding.key, site: finding.site) }
    }
    let header = summary(analysis, listedAll: arguments.has("all"))
    let notes = ["Method: \(FlakyAnalysis.method)."] + analysis.notes
    if let ci = format.ci {
      let table = table(listed, quarantined: quarantined)
      let markdown =
        "### sleeve flaky\n\n**\(MarkdownText.escaped(header))**\n\n"
        + notes.map { MarkdownText.escaped($0) + "\n" }.joined() + "\n" + table.markdown
      try ci.emit(
        CIReport.flaky(listed, summary: header, markdown: markdown, quarantined: quarantined),
        context: context)
    } else {
      context.print(
        table: table(listed, quarantined: quarantined),
        json: json(analysis, listed: listed, quarantined: quarantined), header: header,
        notes: notes)
    }
    return .success
  }

  private static func options(_ arguments: ParsedArguments, context: CommandContext) throws
    -> FlakyAnalysis.Options
  {
    var options = FlakyAnalysis.Options()
    let count = { (name: String) in
      try context.value(name, in: arguments) { text throws(ValueError) in
        try ValueParsers.count(text, minimum: 1, maximum: maximumCount)
      }
    }
    options.window = try count("window") ?? options.window
    options.brokenCommits = try count("broken-commits") ?? options.brokenCommits
    options.clearAfter = try count("clear-after") ?? options.clearAfter
    options.brokenShare =
      try context.value("broken-share", in: arguments) { text throws(ValueError) in
        try ValueParsers.rate(text)
      } ?? options.brokenShare
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

  private static func table(
    _ findings: [FlakyAnalysis.Finding], quarantined: (FlakyAnalysis.Finding) -> Bool
  ) -> Table {
    var table = Table(
      columns: [
        "control", "handler", "verdict", "runs disagreed on", "invocations failed",
        "disagreeing runs", "sessions", "first seen", "last seen", "quarantined", "failure kinds",
        "site",
      ], freeText: [5, 6, 10])
    for finding in findings {
      let kinds = finding.failureKindsByCount
      let shownKinds = kinds.prefix(3).map { "\($0.kind.display) (\($0.count))" }
      let sessions = finding.sessions.prefix(12).map(String.init)
      table.rows.append([
        Table.Cell(finding.control ?? GroupTally.unknownKey), Table.Cell(finding.handler),
        Table.Cell(finding.verdict.rawValue),
        Table.Cell(FlakyText.disagreement(finding), raw: Formatting.raw(finding.flakeRate)),
        Table.Cell(FlakyText.failedInvocations(finding), raw: Formatting.raw(finding.errorRate)),
        Table.Cell(
          FlakyText.disagreeingRuns(finding), raw: FlakyText.disagreeingRuns(finding, limit: .max)),
        Table.Cell(
          sessions.joined(separator: ", ")
            + (finding.sessions.count > 12 ? " and \(finding.sessions.count - 12) more" : ""),
          raw: finding.sessions.map(String.init).joined(separator: " ")),
        time(finding.firstSeenUnixNanoseconds), time(finding.lastSeenUnixNanoseconds),
        Table.Cell(quarantined(finding) ? "yes" : "no"),
        Table.Cell(
          kinds.isEmpty
            ? "-"
            : shownKinds.joined(separator: "; ")
              + (kinds.count > 3 ? "; and \(kinds.count - 3) more" : ""),
          raw: kinds.map { "\($0.kind.display) (\($0.count))" }.joined(separator: "; ")),
        Table.Cell(finding.site ?? "-", raw: finding.site ?? ""),
      ])
    }
    return table
  }

  private static func time(_ unixNanoseconds: Int64?) -> Table.Cell {
    guard let unixNanoseconds else { return Table.Cell("-", raw: "") }
    return Table.Cell(
      Formatting.timestamp(unixNanoseconds: unixNanoseconds), raw: String(unixNanoseconds))
  }

  private static func json(
    _ analysis: FlakyAnalysis, listed: [FlakyAnalysis.Finding],
    quarantined: (FlakyAnalysis.Finding) -> Bool
  ) -> JSONValue {
    let options = analysis.options
    return .object([
      ("method", .string(FlakyAnalysis.method)),
      (
        "options",
        .object([
          ("window", .integer(options.window)), ("brokenShare", .number(options.brokenShare)),
          ("brokenCommits", .integer(options.brokenCommits)),
          ("clearAfter", .integer(options.clearAfter)),
        ])
      ),
      ("commits", .array(analysis.commits.map(JSONValue.string))),
      ("sessions", .array(analysis.sessions.map(JSONValue.int))),
      ("sessionsWithoutCommit", .array(analysis.sessionsWithoutCommit.map(JSONValue.int))),
      ("sessionsOutsideWindow", .array(analysis.sessionsOutsideWindow.map(JSONValue.int))),
      ("notes", .array(analysis.notes.map(JSONValue.string))),
      ("handlers", .array(listed.map { json($0, quarantined: quarantined($0)) })),
    ])
  }

  private static func json(_ finding: FlakyAnalysis.Finding, quarantined: Bool) -> JSONValue {
    func time(_ value: Int64?) -> JSONValue {
      .text(value.map { Formatting.timestamp(unixNanoseconds: $0) })
    }
    return .object([
      ("control", .text(finding.control)), ("handler", .string(finding.handler)),
      ("site", .text(finding.site)), ("verdict", .string(finding.verdict.rawValue)),
      ("flakeRate", .number(finding.flakeRate)),
      ("judgedGroups", .integer(finding.judgedGroups)), ("ran", .integer(finding.ran)),
      ("failed", .integer(finding.failed)), ("errorRate", .number(finding.errorRate)),
      ("sessions", .array(finding.sessions.map(JSONValue.int))),
      ("failingSessions", .array(finding.failingSessions.map(JSONValue.int))),
      ("firstSeen", time(finding.firstSeenUnixNanoseconds)),
      ("firstSeenUnixNs", .integer(finding.firstSeenUnixNanoseconds)),
      ("lastSeen", time(finding.lastSeenUnixNanoseconds)),
      ("lastSeenUnixNs", .integer(finding.lastSeenUnixNanoseconds)),
      ("quarantined", .bool(quarantined)),
      (
        "failureKinds",
        .array(
          finding.failureKindsByCount.map { kind, count in
            .object([
              ("type", .string(kind.type)), ("pattern", .string(kind.pattern)),
              ("count", .integer(count)),
            ])
          })
      ),
      (
        "flakyGroups",
        .array(
          finding.flakyGroups.map { group in
            .object([
              ("commit", .string(group.group.commit)), ("test", .text(group.group.test)),
              ("sessions", .array(group.sessions.map(JSONValue.int))),
              ("failingSessions", .array(group.failingSessions.map(JSONValue.int))),
            ])
          })
      ),
    ])
  }
}
