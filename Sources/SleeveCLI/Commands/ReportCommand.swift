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
      """,
    options: [
      SharedOptions.db,
      OptionSpec("format", value: "format", help: "markdown (default), json or html."),
    ] + SharedOptions.filters + [
      OptionSpec("min-samples", value: "n", help: "Fewest samples for a verdict."),
      OptionSpec(
        "baseline", value: "selection",
        help: "Sessions to mark as baseline in the HTML trend (e.g. 'branch=main')."),
      OptionSpec("out", value: "file", help: "Write the report to a file instead of stdout."),
    ] + SharedOptions.method)

  static var usesSharedFormat: Bool { false }

  /// The formats a report comes in.
  enum Format: String, CaseIterable {
    case markdown, json, html
  }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context)
    let format =
      try context.value("format", in: arguments) { text throws(ValueError) in
        try ValueParsers.choice(text, of: Format.self)
      } ?? .markdown
    let minSamples = try context.value("min-samples", in: arguments) { text throws(ValueError) in
      try ValueParsers.count(text, minimum: 1)
    }
    if arguments["baseline"] != nil && format != .html {
      throw UsageError(
        "--baseline marks sessions in the HTML report's trend; give --format html too",
        command: spec.name)
    }
    let baseline = try context.value("baseline", in: arguments) { text throws(ValueError) in
      try BaselineSelection.parse(text, on: filter.handlersOnly)
    }
    let database = try context.openDatabase()
    let (report, trends): (RolloutReport, [HandlerTrend]) = try database.snapshot {
      try database.verifyIntegrity()
      try context.noteUnmatchedFilters(filter, in: database)
      let report = try database.rolloutReport(matching: filter, minSamples: minSamples)
      guard format == .html, report.sessions.count > 1 else { return (report, []) }
      let marked = try baseline.map {
        Set(try database.sessions(of: .baseline, matching: $0).map(\.id))
      }
      return (
        report,
        try database.trends(of: report.sessions, filter: filter, baseline: marked ?? [])
      )
    }
    let text =
      switch format {
      case .markdown: MarkdownReport.render(report)
      case .json: JSONReport.render(report).text + "\n"
      case .html: HTMLReport.render(report, trends: trends)
      }
    if let out = arguments["out"] {
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
