import SleeveQuery

/// `sleeve latency`: exact percentiles per group.
enum LatencyCommand: Command {
  static let spec = CommandSpec(
    name: "latency",
    abstract: "Latency percentiles per group, with n, min, mean and max.",
    discussion: "Over the invocations that ran (ok or failed). From summaries (the default when\n"
      + "every selected session has them) a percentile is the value at rank\n"
      + "floor((n-1)p/100), numpy's method='lower', within the histograms' relative error\n"
      + "(±1.083% at scale 5), shown beside it; the bound holds for that definition only.\n"
      + "From raw rows (--exact) percentiles are exact, by linear interpolation between\n"
      + "closest ranks (numpy's default, SQLite's percentile()). n, min, mean and max are\n"
      + "exact either way. A percentile is marked insufficient (*) when n < 1/(1-p).",
    options: SharedOptions.common + SharedOptions.filters + [SharedOptions.by, percentiles.spec]
      + SharedOptions.method)

  /// `--percentiles 50,95,99.9`.
  static let percentiles = Option(
    "percentiles", value: "list", help: "Percentiles to show (default: 50,95,99).",
    parse: ValueParsers.percentiles)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context)
    let grouping = try SharedOptions.grouping(arguments, context: context)
    let percentiles = try context.value(Self.percentiles, in: arguments) ?? [50, 95, 99]
    let answer = try context.openDatabase().latencyAnswer(
      matching: filter, by: grouping, percentiles: percentiles)
    context.noteUnmatched(answer.selection)
    context.print(
      AnswerView(
        header: [
          "\(SharedOptions.sessionsLine(answer.selection.sessions)). Method: \(answer.method); "
            + "* = insufficient (n < 1/(1-p)). " + answer.selection.plan.sentence
        ],
        fields: [("method", .string(answer.method)), ("unit", .string("nanoseconds"))]
          + answer.selection.plan.jsonFields + [
            ("by", .string(grouping.rawValue)),
            ("percentiles", .array(percentiles.map { .double($0) })),
            ("sessions", .array(answer.selection.sessions.map { .int($0.id) })),
          ],
        rowsKey: "groups", columns: LatencyRow.columns(by: grouping, percentiles: percentiles),
        rows: answer.rows))
    return .success
  }
}
