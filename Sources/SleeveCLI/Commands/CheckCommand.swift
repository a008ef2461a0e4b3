import SleeveCore
import SleeveQuery
import SleeveStore

extension GateCheck.Metric {
  /// Whether the check's value is a latency figure read from percentiles or histograms (a
  /// p99, a shift against flag-off or the baseline): the header then says how they were read.
  fileprivate var isLatency: Bool {
    switch self {
    case .p99, .latencyVersusOff, .latencyVersusBaseline, .latencyRatioVersusOff: true
    case .errorRate, .errorRateVersusOff, .errorRateVersusBaseline, .newFailureTypes,
      .sampleRatio, .dataLoss:
      false
    }
  }
}

/// `sleeve check`: the CI gate, with the rollout verdicts of `sleeve report`.
enum CheckCommand: Command {
  static let spec = CommandSpec(
    name: "check",
    abstract: "Gate CI on the selected sessions: exit 0 promote, 1 roll back, 2 hold.",
    discussion: """
      Judges each flag: its thresholds (maxErrorRate, maxP99) against its flag-on outcomes,
      and flag-on against flag-off (two-proportion z-test on errors; Mann-Whitney U with the
      Hodges-Lehmann shift on latency; 95% confidence). --max-error-rate and --max-p99 check
      every selected outcome too. A check with fewer samples than its floor (--min-samples,
      else the flag's, else 30; at least 100 for a p99) is insufficient whatever its value:
      the gate then holds (exit 2) unless a check with enough samples fails (exit 1).
      --apply acts on each verdict and records the step (state, share, the evidence as the
      reason, actor 'sleeve check'): a rollback is recorded; a flag rolling out by stages
      that passes its stage advances to the next stage (past the last one it is enabled);
      anything else stays. A flag rolling out by percentage is judged on the two cohorts of
      the share it serves now, which ran at the same time, and first on its split (sample
      ratio mismatch, chi-square, p < 0.001 with at least 8 expected units per arm: a
      mismatch holds) and its data (a cohort with more than --max-data-loss of its outcomes
      in sessions that lost data holds). --sequential judges flag-on against flag-off by
      asymptotic confidence sequences, valid however often the gate is run on a growing
      selection (the default with --apply); --fixed-horizon by the fixed-horizon tests (the
      default otherwise). --advisory errorRate,p99,errorRateVersusOff,latencyVersusOff
      reports those checks without letting them decide; --critical makes them decide again
      (every check is critical unless its flag definition or --advisory says otherwise).
      --baseline judges the selected sessions against a baseline too (as 'sleeve diff'
      does), per handler: error rate, latency and new failure types. Each candidate
      session is judged on its own, and a regression rolls back only when it is found in
      --failure-limit of them (default 1); found in fewer, the gate holds. Handlers with
      no baseline, or none in the candidate, are advisory: listed, not counted; so are the
      handlers of the quarantine list ('sleeve quarantine'), and with --quarantine flaky
      those 'sleeve flaky' judges flaky (--quarantine none counts every handler). On a
      terminal, the checks that pass and the advisory ones fold into a note each under the
      table (--all-rows shows them); pipes, files and the other formats keep every check.
      """,
    options: [SharedOptions.db.spec, JudgedFormat.option] + TerminalDisplay.options
      + [TerminalDisplay.allRows.spec]
      + SharedOptions.filters + [
        maxErrorRate.spec, maxP99.spec, minSamples.spec, applyFlag.spec, sequential.spec,
        fixedHorizon.spec, critical.spec, advisory.spec, maxDataLoss.spec,
      ] + BaselineGateArguments.options + [HistoryOptions.history.spec] + SharedOptions.method)

  /// `--max-error-rate rate`.
  static let maxErrorRate = Option<Double>(
    "max-error-rate", value: "rate", help: "Highest acceptable error rate (0.02 or 2%).",
    completion: .none, parse: ValueParsers.rate)
  /// `--max-p99 duration`.
  static let maxP99 = Option<Int64>(
    "max-p99", value: "duration", help: "Highest acceptable p99 (e.g. 50ms).", completion: .none,
    parse: ValueParsers.duration)
  /// `--min-samples n`: the floor of the flags' checks and of the comparison's.
  static let minSamples = Option<Int>(
    "min-samples", value: "n", help: "Fewest samples for a verdict.", completion: .none
  ) { text throws(ValueError) in try ValueParsers.count(text, minimum: 1) }
  /// `--apply`.
  static let applyFlag = Flag(
    "apply", help: "Roll back, advance a stage or complete each flag, as its verdict says.")
  /// `--sequential`.
  static let sequential = Flag(
    "sequential", help: "Compare flag-on and flag-off by confidence sequences (with --apply).")
  /// `--fixed-horizon`.
  static let fixedHorizon = Flag(
    "fixed-horizon", help: "Compare by the fixed-horizon tests (without --apply).")
  /// `--critical checks`.
  static let critical = checks(
    "critical", help: "Checks that decide, comma-separated (the default).")
  /// `--advisory checks`.
  static let advisory = checks("advisory", help: "Checks reported that never decide.")
  /// `--max-data-loss rate`.
  static let maxDataLoss = Option<Double>(
    "max-data-loss", value: "rate",
    help: "Most of a rollout cohort in sessions that lost data (default 5%).", completion: .none,
    parse: ValueParsers.rate)

  /// A comma-separated list of checks (`FlagCheck`).
  private static func checks(_ name: String, help: String) -> Option<[FlagCheck]> {
    Option(name, value: "checks", help: help, completion: .none) { text throws(ValueError) in
      try ValueParsers.list(text, of: FlagCheck.self)
    }
  }

  static var usesSharedFormat: Bool { false }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    var context = context
    let format = try JudgedFormat.parse(arguments, context: &context)
    let thresholds = GateThresholds(
      maxErrorRate: try context.value(maxErrorRate, in: arguments),
      maxP99Nanoseconds: try context.value(maxP99, in: arguments),
      minSamples: try context.value(minSamples, in: arguments))
    var filter = try SharedOptions.filter(arguments, context: context)
    var against = try BaselineGateArguments.parse(arguments, filter: filter, context: context)
    if arguments.text(of: HistoryOptions.history) != nil, against == nil {
      throw UsageError(
        "--history is where the baseline is read; give --baseline too", command: spec.name)
    }
    let options = try verdictOptions(arguments, context: context)
    var baseline = against?.baseline ?? filter.handlersOnly
    let database = try HistoryOptions.comparisonDatabase(
      arguments, context: context, baseline: &baseline, candidate: &filter,
      everySession: against?.quarantine == .flaky)
    against?.baseline = baseline
    let answer = try database.snapshot {
      try database.verifyIntegrity()
      let selection = try database.select(filter, by: .handler)
      context.noteUnmatched(selection)
      let request = try against?.request(
        candidate: selection, in: database, arguments: arguments, context: context)
      return try database.gateAnswer(
        in: selection, thresholds: thresholds, options: options, against: request)
    }
    let result = answer.result
    // A flag judged at the share it serves is judged on per-share cohorts (raw rows).
    var planText = answer.selection.plan.sentence(
      showsStages: result.reports.contains { $0.history.last?.percent != nil })
    // The comparison reads both sides alike; when that differs from the gate's own reading,
    // the header says both.
    if let compared = answer.comparedPlan?.sentence, compared != planText {
      planText += " Baseline comparison: " + compared
    }
    let decision = result.decision
    let exit = try exitCode(for: decision)
    // How percentiles were read is said only where a check's value is a latency figure.
    let header =
      "\(SharedOptions.sessionsLine(answer.selection.sessions)). Decision: \(decision.rawValue) "
      + "(exit \(exit.rawValue))."
      + (result.checks.contains { $0.metric.isLatency }
        ? " " + planText : answer.selection.plan.prunedSentence.map { " " + $0 } ?? "")
    let columns = GateCheck.columns(detail: against != nil)
    if let ci = format.ci {
      let markdown =
        "### sleeve check\n\n**\(MarkdownText.escaped(header))**\n\n"
        + columns.table(result.checks).markdown
      try ci.emit(
        CIReport.gate(result.checks, summary: header, markdown: markdown), context: context)
    } else {
      context.print(
        AnswerView(
          header: [header],
          document: [
            ("decision", .string(decision.rawValue)), ("exitCode", .int(Int64(exit.rawValue))),
            ("sessions", .array(answer.selection.sessions.map { .int($0.id) })),
            ("answeredFrom", .string(planText)),
            ("flags", .array(result.flags.map(VerdictJSON.flag))),
            ("checks", GateCheck.columns().json(result.global)),
            ("baseline", GateCheck.columns().json(result.baseline)),
          ], columns: columns, rows: result.checks))
    }
    if arguments.has(applyFlag) {
      try apply(result, context: context)
    }
    return exit
  }

  /// The exit code of a decision: 0 promote, 1 rollback, 2 hold; nothing to check is a usage
  /// error (64), as `report` says `nothing-to-check` for the same selection.
  static func exitCode(for decision: RolloutDecision) throws -> ExitCode {
    guard let exit = gateExit(decision) else {
      throw UsageError(
        "Nothing to check: no flag in the selected sessions has thresholds or a flag-off "
          + "cohort; pass --max-error-rate or --max-p99", command: spec.name)
    }
    return exit
  }

  /// The exit code `check` gives for a decision, the one mapping `check` and `report` state:
  /// 0 promote, 1 rollback, 2 hold; `nil` for nothing to check (`check` refuses it, 64).
  static func gateExit(_ decision: RolloutDecision) -> ExitCode? {
    switch decision {
    case .promote: .success
    case .rollback: .breach
    case .hold: .insufficient
    case .nothingToCheck: nil
    }
  }

  /// How flags are judged: sequential by default with --apply, severities and the largest
  /// lost share from the command line.
  private static func verdictOptions(_ arguments: ParsedArguments, context: CommandContext)
    throws -> FlagVerdict.Options
  {
    if arguments.has(sequential) && arguments.has(fixedHorizon) {
      throw UsageError("--sequential and --fixed-horizon exclude each other", command: spec.name)
    }
    var options = FlagVerdict.Options(
      sequential: arguments.has(sequential)
        || (arguments.has(applyFlag) && !arguments.has(fixedHorizon)))
    for (option, severity) in [(critical, CheckSeverity.critical), (advisory, .advisory)] {
      for check in try context.value(option, in: arguments) ?? [] {
        if options.severities[check] != nil, options.severities[check] != severity {
          throw UsageError(
            "--critical and --advisory both name '\(check.rawValue)'", command: spec.name)
        }
        options.severities[check] = severity
      }
    }
    if let share = try context.value(maxDataLoss, in: arguments) {
      options.maximumLostShare = share
    }
    return options
  }

  /// Records each flag's step, with the deciding checks as the reason.
  private static func apply(_ result: GateResult, context: CommandContext) throws {
    let steps = zip(result.reports, result.flags).map { RolloutStep(report: $0, verdict: $1) }
    guard steps.contains(where: { $0.change(evidence: "") != nil }) else { return }
    let store = try StoreWriter(path: context.databasePath)
    for step in steps {
      let evidence = step.evidence
        .map { "\($0.metric.rawValue) \(VerdictTable.value($0)) vs \(VerdictTable.threshold($0))" }
        .joined(separator: "; ")
      guard let change = step.change(evidence: evidence) else { continue }
      try store.recordFlagChange(change)
      let done =
        switch step.action {
        case .rollBack: "Rolled back"
        case .advance(let percent): "Advanced to \(percent)"
        case .complete: "Enabled (last stage passed)"
        case .stay: "Kept"
        }
      context.console.error(
        TerminalText.escaped("\(done) '\(step.flag)': \(evidence)") + "\n")
    }
  }
}
