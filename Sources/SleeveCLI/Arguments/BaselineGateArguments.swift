import SleeveQuery

/// The options of a gate against a baseline, shared by `check --baseline` and
/// `report --baseline` so both read them alike and hand the same ``BaselineRequest`` to
/// the query side's gate: `--baseline`, `--failure-limit`, `--allow-overlap`,
/// `--quarantine` and the minimum changes (`--min-samples` is each command's own option,
/// read for both the flags and the comparison).
struct BaselineGateArguments {
  /// The options, in the order help lists them.
  static let options: [OptionSpec] =
    [
      BaselineSelection.baseline, BaselineSelection.failureLimit, BaselineSelection.allowOverlap,
      quarantineOption.spec,
    ] + BaselineSelection.judging.filter { $0.name != BaselineSelection.minSamples.spec.name }

  /// `--quarantine list|flaky|none`: which handlers the comparison does not count.
  static let quarantineOption = Option<BaselineRequest.Quarantine>(
    "quarantine", value: "which",
    help: "Not counted: list (default: the quarantine list), flaky (and flaky ones) or none.")

  /// The baseline's filter (the selection's handler filters, narrowed by its terms; with
  /// `--history`, to the history's sessions).
  var baseline: QueryFilter
  /// The judging options.
  let options: DiffOptions
  /// In how many candidate sessions a regression must be found.
  let failureLimit: Int
  /// Which handlers are not counted.
  let quarantine: BaselineRequest.Quarantine

  /// The options given, or `nil` without `--baseline`.
  ///
  /// - Throws: `UsageError` for an option of the comparison given without `--baseline`, or
  ///   a value that does not parse.
  static func parse(_ arguments: ParsedArguments, filter: QueryFilter, context: CommandContext)
    throws -> BaselineGateArguments?
  {
    guard arguments.text(of: BaselineSelection.baselineOption) != nil else {
      for option in options where arguments.isGiven(option) {
        throw UsageError(
          "--\(option.name) applies to --baseline; give --baseline too",
          command: context.command.name)
      }
      return nil
    }
    let failureLimit = try context.value(BaselineSelection.failureLimitOption, in: arguments) ?? 1
    let baseline = try context.value(BaselineSelection.baselineOption, in: arguments) {
      text throws(ValueError) in try BaselineSelection.parse(text, on: filter.handlersOnly)
    }
    let quarantine = try context.value(quarantineOption, in: arguments) ?? .list
    return BaselineGateArguments(
      baseline: baseline ?? filter.handlersOnly,
      options: try BaselineSelection.options(arguments, context: context),
      failureLimit: failureLimit, quarantine: quarantine)
  }

  /// The request: the baseline's sessions against the candidate's (`candidate`, the
  /// command's selection, whose sessions are resolved already), an overlap refused unless
  /// `--allow-overlap`. Notes on stderr a failure limit the candidate cannot reach.
  func request(
    candidate: OutcomeSelection, in database: QueryDatabase, arguments: ParsedArguments,
    context: CommandContext
  ) throws -> BaselineRequest {
    let sides = (
      baseline: try database.sessions(of: .baseline, matching: baseline),
      candidate: candidate.sessions
    )
    try BaselineSelection.refuseOverlap(
      baseline: sides.baseline, candidate: sides.candidate, arguments: arguments,
      context: context)
    if sides.candidate.count < failureLimit {
      context.console.error(
        "Note: --failure-limit \(failureLimit) but the candidate has "
          + "\(sides.candidate.count) session\(sides.candidate.count == 1 ? "" : "s"): a "
          + "regression can hold the gate, never roll it back (select more with --last).\n")
    }
    let baselines = try BaselineSelection.handlerBaselines(
      baseline, sessions: sides.baseline, shared: baseline.handlersOnly,
      minSamples: options.minSamples, in: database, context: context)
    return BaselineRequest(
      baseline: sides.baseline, candidate: sides.candidate, options: options,
      failureLimit: failureLimit, quarantine: quarantine, handlerBaselines: baselines)
  }
}
