import SleeveQuery

/// `sleeve flags`: flag states, history and the gated handlers' outcomes.
enum FlagsCommand: Command {
  static let spec = CommandSpec(
    name: "flags",
    abstract: "Flag states, owners, thresholds, history, and flag-on vs flag-off outcomes.",
    options: SharedOptions.common + SharedOptions.filters + SharedOptions.method)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context)
    let answer = try context.openDatabase().flagAnswer(matching: filter)
    context.noteUnmatched(answer.selection)
    let flags = answer.rows
    let sessions = answer.selection.sessions
    context.print(
      AnswerView(
        header: [
          "\(SharedOptions.sessionsLine(sessions)). Error rate = \(answer.method). "
            + answer.selection.plan.sentence(showsStages: ReportText.showsStages(flags))
        ] + (flags.isEmpty ? ["No flags in the selected sessions."] : []),
        fields: [("sessions", .array(sessions.map { .int($0.id) }))]
          + answer.selection.plan.jsonFields,
        rowsKey: "flags", columns: FlagReport.columns, rows: flags))
    guard context.format == .table || context.format == .markdown else { return .success }
    let history = flags.flatMap { flag in
      flag.history.map { change in
        "  \(flag.key): " + ReportText.changeLine(change)
      }
    }
    if !history.isEmpty {
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
    for flag in flags {
      guard let line = ReportText.rolloutLine(flag) else { continue }
      let stages = StageCohorts.columns.table(flag.stages)
      let rendered =
        flag.stages.isEmpty
        ? ReportText.noStagesYet + "\n"
        : context.format == .table
          ? TableLayout.render(stages, header: [], display: context.display) : stages.markdown
      context.console.out(
        "\n" + context.format.escapedLine("\(flag.key): " + line) + ":\n" + rendered)
    }
    return .success
  }
}
