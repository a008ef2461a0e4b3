import SleeveQuery

/// `sleeve flags`: flag states, history and the gated handlers' outcomes.
enum FlagsCommand: Command {
  static let spec = CommandSpec(
    name: "flags",
    abstract: "Flag states, owners, thresholds, history, and flag-on vs flag-off outcomes.",
    options: SharedOptions.common + SharedOptions.filters + SharedOptions.method)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context)
    let database = try context.openDatabase()
    let (sessions, plan, flags) = try database.snapshot {
      let sessions = try database.sessions(matching: filter)
      try context.noteUnmatchedFilters(filter, in: database)
      let plan = try database.answerPlan(for: sessions, method: filter.method)
      return (sessions, plan, try database.flags(matching: filter))
    }
    let cohortColumns = ["n", "error rate", "95% interval", "p50", "p95", "p99"]
    var table = Table(
      columns: ["flag", "state", "owner", "max error rate", "max p99", "min samples"]
        + cohortColumns.map { "on " + $0 } + cohortColumns.map { "off " + $0 },
      numeric: Set([3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 15, 16, 17]))
    for flag in flags {
      table.rows.append(
        [
          Table.Cell(flag.key), Table.Cell(flag.history.last?.display ?? flag.state),
          Table.Cell(flag.owner ?? "-"),
          Table.Cell(Formatting.percent(flag.maxErrorRate), raw: Formatting.raw(flag.maxErrorRate)),
          Table.Cell(
            Formatting.duration(flag.maxP99Nanoseconds.map(Double.init)),
            raw: Formatting.raw(flag.maxP99Nanoseconds)),
          Table.Cell(flag.minSamples.map(String.init) ?? "-"),
        ] + cohortCells(flag.on) + cohortCells(flag.off))
    }
    let header =
      "\(SharedOptions.sessionsLine(sessions)). Error rate = \(ErrorRateRow.method). "
      + plan.sentence(showsStages: ReportText.showsStages(flags))
    let history = flags.flatMap { flag in
      flag.history.map { change in
        "  \(flag.key): " + ReportText.changeLine(change)
      }
    }
    let verdicts = flags.map { FlagVerdict($0) }
    let json = JSONValue.object(
      [
        ("sessions", .array(sessions.map { .int($0.id) }))
      ] + plan.jsonFields + [
        ("flags", .array(zip(flags, verdicts).map { Self.json(for: $0, verdict: $1) }))
      ])
    context.print(
      table: table, json: json, header: header,
      notes: flags.isEmpty ? ["No flags in the selected sessions."] : [])
    if context.format == .table || context.format == .markdown, !history.isEmpty {
      let lines = history.map(context.format.escapedLine)
      // On a terminal, each change wraps to its width, continued under itself.
      let fitted =
        context.format == .table && context.display.layout != .wide
        ? context.display.width.map { width in
          lines.flatMap { line in
            CellText.wrapped(line, width: width - 4).enumerated().map { index, piece in
              index == 0 ? piece : "    " + piece
            }
          }
        } ?? lines : lines
      context.console.out("\nHistory:\n" + fitted.map { $0 + "\n" }.joined())
    }
    if context.format == .table || context.format == .markdown {
      for flag in flags {
        guard let line = ReportText.rolloutLine(flag) else { continue }
        let stages = ReportText.stageTable(flag.stages)
        let rendered =
          flag.stages.isEmpty
          ? ReportText.noStagesYet + "\n"
          : context.format == .table
            ? TableLayout.render(stages, header: [], display: context.display) : stages.markdown
        context.console.out(
          "\n" + context.format.escapedLine("\(flag.key): " + line) + ":\n" + rendered)
      }
    }
    return .success
  }

  private static func cohortCells(_ cohort: FlagReport.Cohort) -> [Table.Cell] {
    [
      Table.Cell(String(cohort.n)),
      Table.Cell(Formatting.percent(cohort.errorRate), raw: Formatting.raw(cohort.errorRate)),
      Table.Cell(
        ReportText.interval(cohort.interval),
        raw: cohort.interval.map { "\($0.lower);\($0.upper)" } ?? ""),
      Table.Cell(
        Formatting.duration(cohort.p50Nanoseconds), raw: Formatting.raw(cohort.p50Nanoseconds)),
      Table.Cell(
        Formatting.duration(cohort.p95Nanoseconds), raw: Formatting.raw(cohort.p95Nanoseconds)),
      Table.Cell(
        Formatting.duration(cohort.p99Nanoseconds)
          + (cohort.p99Nanoseconds != nil
            ? cohort.relativeError.map { " " + AnswerPlan.bound($0) } ?? "" : "")
          + (cohort.p99Insufficient ? "*" : ""),
        raw: Formatting.raw(cohort.p99Nanoseconds)),
    ]
  }

  private static func json(for flag: FlagReport, verdict: FlagVerdict) -> JSONValue {
    func cohort(_ cohort: FlagReport.Cohort) -> JSONValue {
      .object([
        ("n", .integer(cohort.n)), ("errorRate", .number(cohort.errorRate)),
        ("intervalLower", .number(cohort.interval?.lower)),
        ("intervalUpper", .number(cohort.interval?.upper)),
        ("p50", .number(cohort.p50Nanoseconds)), ("p95", .number(cohort.p95Nanoseconds)),
        ("p99", .number(cohort.p99Nanoseconds)), ("p99Insufficient", .bool(cohort.p99Insufficient)),
      ])
    }
    return .object(
      FlagJSON.definition(flag) + [
        ("on", cohort(flag.on)), ("off", cohort(flag.off)),
        ("decision", .string(verdict.decision.rawValue)),
        ("history", FlagJSON.history(flag)), ("rollout", FlagJSON.rollout(flag)),
      ])
  }
}
