import Foundation
import SleeveQuery

/// `sleeve report`: the rollout report.
enum ReportCommand: Command {
  static let spec = CommandSpec(
    name: "report",
    abstract: "The rollout report: each flag's verdict with its evidence, handlers, timelines.",
    discussion: """
      Markdown (default) fits a PR comment or CI summary; JSON has stable keys; HTML is one
      self-contained page with charts (latency distribution per cohort, error rate per handler,
      flag timelines), and over two sessions or more a trend per handler (error rate and p99
      per session, the sessions of --baseline marked).
      The decision is the gate's: the one 'sleeve check' gives (and its exit code) for the
      same selection, --min-samples and --baseline options. With --baseline, in every format,
      the selected sessions are judged against it as 'sleeve check --baseline' judges them
      (an overlap is refused unless --allow-overlap), the regressions and new failure types
      first; the HTML trend then draws the baseline's sessions and the selected ones.
      """,
    options: [SharedOptions.db.spec, formatOption.spec] + SharedOptions.filters
      + [minSamples.spec] + BaselineGateArguments.options + [out.spec] + SharedOptions.method)

  /// `--format markdown|json|html`.
  static let formatOption = Option<Format>(
    "format", value: "format", help: "markdown (default), json or html.")
  /// `--min-samples n`.
  static let minSamples = Option<Int>(
    "min-samples", value: "n", help: "Fewest samples for a verdict.", completion: .none
  ) { text throws(ValueError) in try ValueParsers.count(text, minimum: 1) }
  /// `--out file`.
  static let out = Option<String>(
    "out", value: "file", help: "Write the report to a file instead of stdout.",
    completion: .files)

  static var usesSharedFormat: Bool { false }

  /// The formats a report comes in.
  enum Format: String, CaseIterable, Sendable {
    case markdown, json, html
  }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context)
    let format = try context.value(formatOption, in: arguments) ?? .markdown
    let minSamples = try context.value(Self.minSamples, in: arguments)
    let against = try BaselineGateArguments.parse(arguments, filter: filter, context: context)
    let database = try context.openDatabase()
    let (report, trends): (RolloutReport, [HandlerTrend]) = try database.snapshot {
      try database.verifyIntegrity()
      let selection = try database.select(filter, by: .handler)
      context.noteUnmatched(selection)
      let request = try against?.request(
        candidate: selection, in: database, arguments: arguments, context: context)
      let report = try database.rolloutReport(
        in: selection, minSamples: minSamples, against: request)
      let drawn = request?.sessions ?? report.sessions
      guard format == .html, drawn.count > 1 else { return (report, []) }
      return (
        report,
        try database.trends(
          of: drawn, filter: filter, baseline: Set(request?.baseline.map(\.id) ?? []),
          handlerBaselines: request?.handlerBaselines)
      )
    }
    let text =
      switch format {
      case .markdown: MarkdownReport.render(report)
      case .json: JSONReport.render(report).text + "\n"
      case .html: HTMLReport.render(report, trends: trends)
      }
    if let out = arguments.text(of: Self.out) {
      let file = try OutputFile(path: out, protecting: [context.databasePath])
      try file.write(text)
      try file.finish()
      context.console.error(
        "Wrote the \(format.rawValue) report to \(TerminalText.escaped(out)).\n")
    } else {
      context.console.out(text)
    }
    return .success
  }
}
