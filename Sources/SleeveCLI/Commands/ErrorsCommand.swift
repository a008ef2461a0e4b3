import SleeveQuery

/// `sleeve errors`: error rates per group.
enum ErrorsCommand: Command {
  static let spec = CommandSpec(
    name: "errors",
    abstract: "Error rates per group: failed / (ok + failed), with n and a Wilson 95% interval.",
    discussion: "Outcomes that did not run (skipped, ownerReleased, cancelled, recursionLimit)\n"
      + "are counted in their own columns, not in the rate.",
    options: SharedOptions.common + SharedOptions.filters + [SharedOptions.by]
      + SharedOptions.method)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context)
    let grouping = try SharedOptions.grouping(arguments, context: context)
    let database = try context.openDatabase()
    let (sessions, plan, rows) = try database.snapshot {
      let sessions = try database.sessions(matching: filter)
      try context.noteUnmatchedFilters(filter, in: database)
      let plan = try database.answerPlan(for: sessions, method: filter.method, grouping: grouping)
      return (sessions, plan, try database.errorRates(matching: filter, by: grouping))
    }
    var table = Table(
      columns: [
        grouping.rawValue, "n", "ok", "failed", "error rate", "95% interval", "ownerReleased",
        "skipped", "cancelled", "recursionLimit",
      ], numeric: [1, 2, 3, 4, 6, 7, 8, 9])
    for row in rows {
      let interval = row.interval.map {
        "[\(Formatting.percent($0.lower)), \(Formatting.percent($0.upper))]"
      }
      table.rows.append([
        Table.Cell(row.key), Table.Cell(String(row.n)), Table.Cell(String(row.ok)),
        Table.Cell(String(row.failed)),
        Table.Cell(Formatting.percent(row.rate), raw: Formatting.raw(row.rate)),
        Table.Cell(
          interval ?? "-",
          raw: row.interval.map { "\($0.lower);\($0.upper)" } ?? ""),
        Table.Cell(String(row.ownerReleased)), Table.Cell(String(row.skipped)),
        Table.Cell(String(row.cancelled)), Table.Cell(String(row.recursionLimit)),
      ])
    }
    let json = JSONValue.object(
      [
        ("method", .string(ErrorRateRow.method)), ("by", .string(grouping.rawValue)),
      ] + plan.jsonFields + [
        ("sessions", .array(sessions.map { .int($0.id) })),
        (
          "groups",
          .array(
            rows.map { row in
              .object([
                ("key", .string(row.key)), ("n", .integer(row.n)), ("ok", .integer(row.ok)),
                ("failed", .integer(row.failed)), ("errorRate", .number(row.rate)),
                ("intervalLower", .number(row.interval?.lower)),
                ("intervalUpper", .number(row.interval?.upper)),
                ("ownerReleased", .integer(row.ownerReleased)), ("skipped", .integer(row.skipped)),
                ("cancelled", .integer(row.cancelled)),
                ("recursionLimit", .integer(row.recursionLimit)),
              ])
            })
        ),
      ])
    let header =
      "\(SharedOptions.sessionsLine(sessions)). Error rate = \(ErrorRateRow.method). "
      + plan.sentence
    context.print(table: table, json: json, header: header)
    return .success
  }
}
