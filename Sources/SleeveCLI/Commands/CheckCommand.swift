import SleeveQuery

/// `sleeve check`: the CI gate.
enum CheckCommand: Command {
  static let spec = CommandSpec(
    name: "check",
    abstract: "Gate CI on the selected sessions: exit 0 pass, 1 breach, 2 not enough samples.",
    discussion: """
      Checks each flag's thresholds (from its definition) against its flag-on outcomes, and
      --max-error-rate / --max-p99 against every selected outcome. A check with fewer samples
      than its floor (--min-samples, else the flag's, else 30; at least 100 for a p99) is
      insufficient whatever its value: the gate then holds (exit 2) unless another check
      breaches with enough samples (exit 1).
      """,
    options: SharedOptions.common + SharedOptions.filters + [
      OptionSpec(
        "max-error-rate", value: "rate", help: "Highest acceptable error rate (0.02 or 2%)."),
      OptionSpec("max-p99", value: "duration", help: "Highest acceptable p99 (e.g. 50ms)."),
      OptionSpec("min-samples", value: "n", help: "Fewest samples for a verdict."),
    ])

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context)
    let thresholds = GateThresholds(
      maxErrorRate: try context.value("max-error-rate", in: arguments, ValueParsers.rate),
      maxP99Nanoseconds: try context.value("max-p99", in: arguments, ValueParsers.duration),
      minSamples: try context.value("min-samples", in: arguments) { text throws(ValueError) in
        try ValueParsers.count(text, minimum: 1)
      })
    let database = try QueryDatabase(path: context.databasePath)
    let sessions = try database.sessions(matching: filter)
    let result = try database.gate(matching: filter, thresholds: thresholds)
    guard !result.checks.isEmpty else {
      throw UsageError(
        "Nothing to check: no flag in the selected sessions has thresholds; "
          + "pass --max-error-rate or --max-p99", command: spec.name)
    }
    var table = Table(
      columns: ["check", "metric", "value", "threshold", "n", "min samples", "verdict", "method"],
      numeric: [2, 3, 4, 5])
    for check in result.checks {
      let (value, threshold) =
        check.metric == .p99
        ? (Formatting.duration(check.value), Formatting.duration(check.threshold))
        : (Formatting.percent(check.value), Formatting.percent(check.threshold))
      table.rows.append([
        Table.Cell(check.subject), Table.Cell(check.metric.rawValue),
        Table.Cell(value, raw: Formatting.raw(check.value)),
        Table.Cell(threshold, raw: Formatting.raw(check.threshold)),
        Table.Cell(String(check.n)), Table.Cell(String(check.minSamples)),
        Table.Cell(check.verdict.rawValue), Table.Cell(check.method),
      ])
    }
    let (exit, word) = outcome(of: result)
    let json = JSONValue.object([
      ("verdict", .string(word)), ("exitCode", .int(Int64(exit.rawValue))),
      ("sessions", .array(sessions.map { .int($0.id) })),
      (
        "checks",
        .array(
          result.checks.map { check in
            .object([
              ("subject", .string(check.subject)), ("metric", .string(check.metric.rawValue)),
              ("value", .number(check.value)), ("threshold", .number(check.threshold)),
              ("n", .integer(check.n)), ("minSamples", .integer(check.minSamples)),
              ("verdict", .string(check.verdict.rawValue)), ("method", .string(check.method)),
            ])
          })
      ),
    ])
    context.print(
      table: table, json: json,
      header: "\(SharedOptions.sessionsLine(sessions)). Gate: \(word) (exit \(exit.rawValue)).")
    return exit
  }

  /// The exit code and the word for the gate's verdict.
  static func outcome(of result: GateResult) -> (ExitCode, String) {
    switch result.verdict {
    case .pass: (.success, "pass")
    case .breach: (.breach, "breach")
    case .insufficient: (.insufficient, "hold: not enough samples")
    }
  }
}
