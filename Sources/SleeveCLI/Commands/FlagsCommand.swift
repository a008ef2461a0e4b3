import SleeveQuery

/// `sleeve flags`: flag states, history and the gated handlers' outcomes.
enum FlagsCommand: Command {
  static let spec = CommandSpec(
    name: "flags",
    abstract: "Flag states, owners, thresholds, history, and flag-on vs flag-off outcomes.",
    options: SharedOptions.common + SharedOptions.filters)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context)
    let database = try QueryDatabase(path: context.databasePath)
    let sessions = try database.sessions(matching: filter)
    let flags = try database.flags(matching: filter)
    var table = Table(
      columns: [
        "flag", "state", "owner", "max error rate", "max p99", "min samples", "on n",
        "on error rate", "on p99", "off n", "off error rate", "off p99",
      ], numeric: [3, 4, 5, 6, 7, 8, 9, 10, 11])
    for flag in flags {
      table.rows.append(
        [
          Table.Cell(flag.key), Table.Cell(flag.state), Table.Cell(flag.owner ?? "-"),
          Table.Cell(Formatting.percent(flag.maxErrorRate), raw: Formatting.raw(flag.maxErrorRate)),
          Table.Cell(
            Formatting.duration(flag.maxP99Nanoseconds.map(Double.init)),
            raw: Formatting.raw(flag.maxP99Nanoseconds.map(Double.init))),
          Table.Cell(flag.minSamples.map(String.init) ?? "-"),
        ] + cohortCells(flag.on) + cohortCells(flag.off))
    }
    var header = "\(SharedOptions.sessionsLine(sessions)). Error rate = \(ErrorRateRow.method)."
    let history = flags.flatMap { flag in
      flag.history.map { change in
        "  \(Formatting.timestamp(unixNanoseconds: change.atUnixNanoseconds))  \(flag.key) -> "
          + change.state + (change.reason.map { " (\($0))" } ?? "")
          + (change.actor.map { " by \($0)" } ?? "")
      }
    }
    if flags.isEmpty { header += "\nNo flags in the selected sessions." }
    let json = JSONValue.object([
      ("sessions", .array(sessions.map { .int($0.id) })),
      ("flags", .array(flags.map(json(for:)))),
    ])
    context.print(table: table, json: json, header: header)
    if context.format == .table || context.format == .markdown, !history.isEmpty {
      context.console.out("\nHistory:\n" + history.joined(separator: "\n") + "\n")
    }
    return .success
  }

  private static func cohortCells(_ cohort: FlagReport.Cohort) -> [Table.Cell] {
    [
      Table.Cell(String(cohort.n)),
      Table.Cell(Formatting.percent(cohort.errorRate), raw: Formatting.raw(cohort.errorRate)),
      Table.Cell(
        Formatting.duration(cohort.p99Nanoseconds) + (cohort.p99Insufficient ? "*" : ""),
        raw: Formatting.raw(cohort.p99Nanoseconds)),
    ]
  }

  private static func json(for flag: FlagReport) -> JSONValue {
    func cohort(_ cohort: FlagReport.Cohort) -> JSONValue {
      .object([
        ("n", .integer(cohort.n)), ("errorRate", .number(cohort.errorRate)),
        ("intervalLower", .number(cohort.interval?.lower)),
        ("intervalUpper", .number(cohort.interval?.upper)),
        ("p99", .number(cohort.p99Nanoseconds)), ("p99Insufficient", .bool(cohort.p99Insufficient)),
      ])
    }
    return .object([
      ("key", .string(flag.key)), ("state", .string(flag.state)), ("owner", .text(flag.owner)),
      ("maxErrorRate", .number(flag.maxErrorRate)), ("maxP99", .integer(flag.maxP99Nanoseconds)),
      ("minSamples", .integer(flag.minSamples)), ("on", cohort(flag.on)),
      ("off", cohort(flag.off)),
      (
        "history",
        .array(
          flag.history.map { change in
            .object([
              ("state", .string(change.state)), ("reason", .text(change.reason)),
              ("actor", .text(change.actor)),
              ("at", .string(Formatting.timestamp(unixNanoseconds: change.atUnixNanoseconds))),
              ("session", .integer(change.session)),
            ])
          })
      ),
    ])
  }
}
