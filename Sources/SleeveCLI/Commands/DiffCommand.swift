import SleeveQuery

/// `sleeve diff`: a candidate judged against a baseline, per handler.
enum DiffCommand: Command {
  static let spec = CommandSpec(
    name: "diff",
    abstract: "Judge a candidate against a baseline, per handler: regressed, improved, ...",
    discussion: """
      Per handler (control and handler; --by control, event, flag or variant), both sides'
      n, error rate, p50 and p99, the change and a verdict: regressed, improved, unchanged,
      new, gone or insufficient. Errors: two-proportion z-test; latency: Mann-Whitney U with
      the Hodges-Lehmann shift; both one-sided, with a minimum change, and Holm-adjusted
      across every row (BH q-values shown). Where every session recorded its test, sides
      are compared test by test (Cochran-Mantel-Haenszel, van Elteren). A failure type the
      baseline never had is a regression at any rate. A flag rolling out by percentage shows
      each side's concurrent cohorts per served share below the table (and under "rollouts"
      in JSON). On a terminal, the rows no judgement needs (unchanged, new, gone) fold into
      a note per verdict under the table (--all-rows shows them); pipes, files and the
      other formats keep every row. Exit 0 whatever the verdicts (gate with 'sleeve check
      --baseline').
      """,
    options: [SharedOptions.db.spec, JudgedFormat.option] + TerminalDisplay.options
      + [TerminalDisplay.allRows.spec]
      + BaselineSelection.filters + [
        SharedOptions.by, BaselineSelection.baseline, BaselineSelection.candidate,
        BaselineSelection.allowOverlap, HistoryOptions.history.spec,
      ] + BaselineSelection.judging + SharedOptions.method)

  static var usesSharedFormat: Bool { false }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    var context = context
    let format = try JudgedFormat.parse(arguments, context: &context)
    var sides = try BaselineSelection.resolve(arguments, context: context)
    let grouping = try SharedOptions.grouping(arguments, context: context)
    guard grouping != .session else {
      throw UsageError(
        "diff compares sessions, so it cannot group by session; use control, handler, event, "
          + "flag or variant", command: spec.name)
    }
    let database = try HistoryOptions.comparisonDatabase(
      arguments, context: context, baseline: &sides.baseline, candidate: &sides.candidate)
    let answer = try database.snapshot {
      let sessions = try BaselineSelection.sessions(
        baseline: sides.baseline, candidate: sides.candidate, in: database,
        arguments: arguments, context: context)
      let baselines = try BaselineSelection.handlerBaselines(
        sides.baseline, sessions: sessions.baseline, shared: sides.shared, grouping: grouping,
        minSamples: sides.options.minSamples, in: database, context: context)
      return try database.diffAnswer(
        baseline: sessions.baseline, candidate: sessions.candidate, filter: sides.shared,
        by: grouping, options: sides.options, baselines: baselines)
    }
    for note in answer.unmatchedFilters {
      context.console.error("Note: \(TerminalText.escaped(note))\n")
    }
    let diff = answer.diff
    let changes = answer.baselineChanges.map { ChangeRow(change: $0, isNew: false) }
    let changeNotes =
      (sides.baseline.sinceChange
        ? [
          "since=change: each handler is judged against the baseline's runs since its own "
            + "last change (its sessions are named on standard error); the sessions above are "
            + "those read."
        ] : [])
      + changes.map(\.baselineNote)
      + (changes.isEmpty || sides.baseline.sinceChange
        ? []
        : [
          "To judge each handler against the baseline's runs since its own last change, add since=change to --baseline."
        ])
    if let ci = format.ci {
      try ci.emit(CIReport.diff(diff), context: context)
    } else if context.format == .markdown {
      context.console.out(
        DiffTable.markdown(diff, title: "sleeve diff", notes: changeNotes)
          + stageSections(answer, context))
    } else {
      let rollouts = answer.rollouts.map { side, flags in
        (
          side.rawValue,
          JSONValue.object(
            flags.sorted { $0.key < $1.key }.map { ($0.key, FlagJSON.cohorts($0.value)) })
        )
      }
      context.print(
        DiffTable.view(
          diff,
          header: [
            DiffTable.summary(diff) + ". " + DiffTable.sidesLine(diff) + " "
              + answer.plan.sentence(showsStages: answer.showsStages)
          ] + changeNotes,
          trailingFields: [("baselineChanges", ChangeRow.columns.json(changes))]
            + (answer.showsStages ? [("rollouts", .object(rollouts))] : [])))
      if context.format == .table { context.console.out(stageSections(answer, context)) }
    }
    return .success
  }

  /// Each side's rollout cohorts per served share, flag by flag; empty without rollouts.
  private static func stageSections(_ answer: DiffAnswer, _ context: CommandContext) -> String {
    var out = ""
    for (side, flags) in answer.rollouts {
      for (flag, stages) in flags.sorted(by: { $0.key < $1.key }) where !stages.isEmpty {
        let table = StageCohorts.columns.table(stages)
        out +=
          "\n" + context.format.escapedLine("Rollout of \(flag), \(side.rawValue):") + "\n"
          + (context.format == .table
            ? TableLayout.render(table, header: [], display: context.display) : table.markdown)
      }
    }
    return out
  }
}
