import SleeveQuery

/// `sleeve latency`: exact percentiles per group.
enum LatencyCommand: Command {
  static let spec = CommandSpec(
    name: "latency",
    abstract: "Latency percentiles per group, exact, with n, min, mean and max.",
    discussion: "Percentiles use linear interpolation between closest ranks (numpy's default,\n"
      + "SQLite's percentile()) over the invocations that ran (ok or failed). A percentile\n"
      + "is marked insufficient (*) when n < 1/(1-p).",
    options: SharedOptions.common + SharedOptions.filters + [
      SharedOptions.by,
      OptionSpec("percentiles", value: "list", help: "Percentiles to show (default: 50,95,99)."),
    ])

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context)
    let grouping = try SharedOptions.grouping(arguments, context: context)
    let percentiles =
      try context.value("percentiles", in: arguments, ValueParsers.percentiles) ?? [50, 95, 99]
    let database = try context.openDatabase()
    let (sessions, rows) = try database.snapshot {
      let sessions = try database.sessions(matching: filter)
      try context.noteUnmatchedFilters(filter, in: database)
      let rows = try database.latency(matching: filter, by: grouping, percentiles: percentiles)
      return (sessions, rows)
    }
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
        let shown = Formatting.duration(point.nanoseconds) + (point.insufficient ? "*" : "")
        cells.append(Table.Cell(shown, raw: Formatting.raw(point.nanoseconds)))
      }
      cells.append(
        Table.Cell(
          Formatting.duration(row.max.map(Double.init)),
          raw: Formatting.raw(row.max)))
      table.rows.append(cells)
    }
    let json = JSONValue.object([
      ("method", .string(Percentile.method)), ("unit", .string("nanoseconds")),
      ("by", .string(grouping.rawValue)), ("percentiles", .array(percentiles.map { .double($0) })),
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
      "\(SharedOptions.sessionsLine(sessions)). Method: \(Percentile.method); "
      + "* = insufficient (n < 1/(1-p))."
    context.print(table: table, json: json, header: header)
    return .success
  }
}
