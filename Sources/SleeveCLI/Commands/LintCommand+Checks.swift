import SleeveQuery
import SleeveStore

extension LintCommand {
  /// `sleeve lint [<selection>]`: runs the checks and writes the report in the chosen format,
  /// to standard output or `--out`.
  static func runChecks(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
    var context = context
    let format = try JudgedFormat.parse(arguments, context: &context)
    let filter = try SharedOptions.filter(arguments, context: context)
    let options = try lintOptions(arguments, context: context)
    let failOn = try context.value(Self.failOn, in: arguments) ?? .error
    let out = arguments.text(of: Self.out)
    let database = try context.openDatabase()
    let report = try database.snapshot {
      let report = try LintEngine.report(database, filter: filter, options: options)
      try context.noteUnmatchedFilters(filter, in: database)
      return report
    }
    // With --out the output is made as for standard output, then written to the file whole.
    let sink = out.map { _ in Console.capturing(environment: context.console.environment) }
    var target = context
    if let sink {
      target = CommandContext(
        console: sink, databasePath: context.databasePath, format: context.format,
        command: context.command, display: .plain)
    }
    if let ci = format.ci {
      let markdown = LintReportText.markdown(report, failOn: failOn)
      try ci.emit(
        CIReport.lint(
          report, failOn: failOn, summary: LintReportText.summary(report, failOn: failOn),
          markdown: markdown), context: target)
    } else {
      target.console.out(
        LintReportText.render(
          report, failOn: failOn, format: target.format, display: target.display))
    }
    if let out, let sink {
      if !sink.capturedError.isEmpty { context.console.error(sink.capturedError) }
      let file = try OutputFile(path: out, protecting: [context.databasePath])
      try file.write(sink.capturedOutput)
      try file.finish()
      context.console.error(
        "Wrote the \(format.rawValue) lint report to \(TerminalText.escaped(out)).\n")
    }
    return LintReportText.exitCode(report, failOn: failOn)
  }

  /// The thresholds and disabled checks the options give.
  static func lintOptions(_ arguments: ParsedArguments, context: CommandContext) throws
    -> LintOptions
  {
    var options = LintOptions()
    options.disabled = Set(
      try arguments.texts(of: disable).map { try check($0, option: disable.spec.name) })
    options.frameBudgetNanoseconds =
      try context.value(frameBudget, in: arguments) ?? options.frameBudgetNanoseconds
    options.rageWindowNanoseconds =
      try context.value(rageWindow, in: arguments) ?? options.rageWindowNanoseconds
    options.rageCount = try context.value(rageCount, in: arguments) ?? options.rageCount
    return options
  }
}
