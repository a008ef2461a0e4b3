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
    options: SharedOptions.common + SharedOptions.filters + [
      SharedOptions.by,
      OptionSpec("percentiles", value: "list", help: "Percentiles to show (default: 50,95,99)."),
    ] + SharedOptions.method)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context)
    let grouping = try SharedOptions.grouping(arguments, context: context)
    let percentiles =
      try context.value("percentiles", in: arguments, ValueParsers.percentiles) ?? [50, 95, 99]
    let database = try context.openDatabase()
    let (sessions, plan, rows) = try database.snapshot {
      let sessions = try database.sessions(matching: filter)
      try context.noteUnmatchedFilters(filter, in: database)
      let plan = try database.answerPlan(for: sessions, method: filter.method, grouping: grouping)
      let rows = try database.latency(matching: filter, by: grouping, percentiles: percentiles)
      return (sessions, plan, rows)
    }
    let method =
      plan.source == .summaries ? AnswerPlan.histogramPercentileMethod : Percentile.method
    let labels = percentiles.map(Formatting.percentileLabel)
    var table = Table(
      columns: [grouping.rawValue, "n", "min", "mean"] + labels + ["max"],
      numeric: Set(1..<(5 + labels.count)))
    for row in rows {
      var cells: [Table.Cell] = [
        Table.Cell(row.key), Table.Cell(String(row.n)),
        Table.Cell(
          Formatting.duration(row.min.map(Double.init)),
          raw: Formatting.raw(row.min)),
        Table.Cell(Formatting.duration(row.mean), raw: Formatting.raw(row.mean)),
      ]
      for point in row.points {
        let bound =
          point.nanoseconds != nil ? row.relativeError.map { " " + AnswerPlan.bound($0) } ?? "" : ""
        let shown =
          Formatting.duration(point.nanoseconds) + bound + (point.insufficient ? "*" : "")
        cells.append(Table.Cell(shown, raw: Formatting.raw(point.nanoseconds)))
      }
      cells.append(
        Table.Cell(
          Formatting.duration(row.max.map(Double.init)),
          raw: Formatting.raw(row.max)))
      table.rows.append(cells)
    }
    let json = JSONValue.object(
      [
        ("method", .string(method)), ("unit", .string("nanoseconds")),
      ] + plan.jsonFields + [
        ("by", .string(grouping.rawValue)),
        ("percentiles", .array(percentiles.map { .double($0) })),
        ("sessions", .array(sessions.map { .int($0.id) })),
        (
          "groups",
          .array(
            rows.map { row in
              .object([
                ("key", .string(row.key)), ("n", .integer(row.n)),
                ("min", .integer(row.min)), ("mean", .number(row.mean)),
                ("max", .integer(row.max)),
                (
                  "percentiles",
                  .array(
                    row.points.map { point in
                      .object([
                        ("p", .double(point.percentile)), ("value", .number(point.nanoseconds)),
                        ("insufficient", .bool(point.insufficient)),
                      ])
                    })
                ),
              ])
            })
        ),
      ])
    let header =
      "\(SharedOptions.sessionsLine(sessions)). Method: \(method); "
      + "* = insufficient (n < 1/(1-p)). " + plan.sentence
    context.print(table: table, json: json, header: header)
    return .success
  }
}
