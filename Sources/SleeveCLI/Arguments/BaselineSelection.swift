import SleeveQuery

/// The options that pick and judge the two sides of a comparison, shared by `diff` and
/// `check --baseline`: `--baseline` and `--candidate` selections, `--allow-overlap`, and the
/// minimum changes.
///
/// A selection is a comma-separated list of session terms, `key=value`, with the names and
/// value rules of the query options (``SessionTerms``): `branch=main,last=20`,
/// `commit=4f2a9c1`, `session=last`. The filters given as options (`--test`, `--control`, …)
/// apply to both sides; each side's terms narrow them further.
enum BaselineSelection {
  /// `--baseline`: what to judge against, a selection (``parse(_:on:)``).
  static let baselineOption = Option<String>(
    "baseline", value: "selection",
    help: "What to judge against, e.g. 'branch=main,last=20' or 'branch=main,since=change' "
      + "(terms: " + SessionTerms.names.joined(separator: ", ") + ").", completion: .none)
  static let baseline = baselineOption.spec
  /// `--candidate`: what to judge, a selection (default `session=last`).
  static let candidateOption = Option<String>(
    "candidate", value: "selection",
    help: "What to judge (default: 'session=last', the last session the filters allow).",
    completion: .none)
  static let candidate = candidateOption.spec
  /// `--allow-overlap`.
  static let allowOverlapFlag = Flag(
    "allow-overlap", help: "Allow a session in both the baseline and the candidate.")
  static let allowOverlap = allowOverlapFlag.spec
  /// `--min-samples`: the fewest invocations per side for a verdict.
  static let minSamples = Option<Int>(
    "min-samples", value: "n", help: "Fewest invocations per side for a verdict (default: 30).",
    completion: .none
  ) { text throws(ValueError) in try ValueParsers.count(text, minimum: 1) }
  /// `--min-error-change`.
  static let minErrorChange = Option<Double>(
    "min-error-change", value: "rate",
    help: "Smallest error-rate change that counts (default: 1%, one point).", completion: .none,
    parse: ValueParsers.rate)
  /// `--min-latency-change`.
  static let minLatencyChange = Option<Int64>(
    "min-latency-change", value: "duration",
    help: "Smallest latency shift that counts (default: 10us).", completion: .none,
    parse: ValueParsers.duration)
  /// `--min-relative-change`.
  static let minRelativeChange = Option<Double>(
    "min-relative-change", value: "rate",
    help: "Smallest change relative to the baseline that counts (default: 10%).",
    completion: .none, parse: ValueParsers.rate)
  static let judging = [
    minSamples.spec, minErrorChange.spec, minLatencyChange.spec, minRelativeChange.spec,
  ]

  /// The filter options of a comparison: every query filter but `--session` and `--last`,
  /// which only a side's selection can say.
  static let filters = SharedOptions.filters.filter {
    $0.name != SessionTerms.session.spec.name && $0.name != SessionTerms.last.spec.name
  }

  /// The value of `since` that starts each handler's baseline at its last change point
  /// (`branch=main,since=change`).
  static let sinceChange = "change"

  /// Parses one selection on top of `base`; `since=change` only where `sinceChangeAllowed`
  /// (a baseline: a candidate has no change points of its own to start from).
  ///
  /// - Throws: `ValueError` naming the term that is wrong.
  static func parse(_ text: String, on base: QueryFilter, sinceChangeAllowed: Bool = true)
    throws(ValueError) -> QueryFilter
  {
    var filter = base
    filter.session = .all
    var seen: Set<String> = []
    // Split on scalars, never on `Character`s: a combining mark after `,` or `=` would
    // otherwise join it into one `Character` and hide the separator.
    for scalars in text.unicodeScalars.split(separator: ",", omittingEmptySubsequences: false) {
      let term = String(String.UnicodeScalarView(scalars))
      guard let equals = scalars.firstIndex(of: "=") else {
        throw ValueError(
          "expected terms like branch=main,last=20, separated by commas; '\(term)' has no '='")
      }
      let key = String(String.UnicodeScalarView(scalars[..<equals]))
        .trimmingCharacters(in: .whitespaces)
      let value = String(String.UnicodeScalarView(scalars[scalars.index(after: equals)...]))
      guard seen.insert(key).inserted else { throw ValueError("'\(key)' is given twice") }
      if key == SessionTerms.since.spec.name && value == sinceChange {
        guard sinceChangeAllowed else {
          throw ValueError(
            "since=change starts a baseline at its change points; use it in --baseline")
        }
        filter.sinceChange = true
        continue
      }
      do {
        try SessionTerms.apply(key, value, to: &filter)
      } catch {
        throw ValueError("\(key)=\(value): \(error.reason)")
      }
    }
    if seen.contains("session") && seen.contains("last") {
      throw ValueError("session and last choose sessions two ways; give one of them")
    }
    return filter
  }

  /// `--failure-limit`: in how many candidate sessions a regression must be found.
  static let failureLimitOption = Option<Int>(
    "failure-limit", value: "k",
    help: "Roll back only for a regression found in k of the candidate sessions (default: 1).",
    completion: .none
  ) { text throws(ValueError) in
    try ValueParsers.count(text, minimum: 1, maximum: SessionTerms.maximumLast)
  }
  static let failureLimit = failureLimitOption.spec

  /// The judging options given (`--min-samples`, `--min-error-change`, …) over the defaults.
  static func options(_ arguments: ParsedArguments, context: CommandContext) throws
    -> DiffOptions
  {
    var options = DiffOptions()
    options.minSamples = try context.value(minSamples, in: arguments) ?? options.minSamples
    options.minErrorChange =
      try context.value(minErrorChange, in: arguments) ?? options.minErrorChange
    options.minLatencyChangeNanoseconds =
      try context.value(minLatencyChange, in: arguments) ?? options.minLatencyChangeNanoseconds
    options.minRelativeChange =
      try context.value(minRelativeChange, in: arguments) ?? options.minRelativeChange
    return options
  }

  /// The two sides' filters, the shared filter and the judging options.
  static func resolve(_ arguments: ParsedArguments, context: CommandContext) throws -> (
    baseline: QueryFilter, candidate: QueryFilter, shared: QueryFilter, options: DiffOptions
  ) {
    let shared = try SharedOptions.filter(arguments, context: context, defaultSession: .all)
    guard
      let baseline = try context.value(
        baselineOption, in: arguments, { text throws(ValueError) in try parse(text, on: shared) })
    else {
      throw UsageError(
        "Missing --baseline, e.g. --baseline 'branch=main,last=20'", command: context.command.name)
    }
    let candidate =
      try context.value(candidateOption, in: arguments) { text throws(ValueError) in
        try parse(text, on: shared, sinceChangeAllowed: false)
      }
      ?? {
        var last = shared
        last.session = .last
        return last
      }()
    let options = try options(arguments, context: context)
    return (baseline, candidate, shared, options)
  }

  /// Both sides' sessions, refusing an overlap unless `--allow-overlap`.
  static func sessions(
    baseline: QueryFilter, candidate: QueryFilter, in database: QueryDatabase,
    arguments: ParsedArguments, context: CommandContext
  ) throws -> (baseline: [SessionSummary], candidate: [SessionSummary]) {
    let before = try database.sessions(of: .baseline, matching: baseline)
    let after = try database.sessions(of: .candidate, matching: candidate)
    try refuseOverlap(baseline: before, candidate: after, arguments: arguments, context: context)
    return (before, after)
  }

  /// Each handler's baseline when the selection says `since=change` (`nil` otherwise), its
  /// notes said on standard error: where each handler's baseline starts, and each fallback.
  ///
  /// - Throws: `UsageError` for `since=change` under a grouping other than handler.
  static func handlerBaselines(
    _ baseline: QueryFilter, sessions: [SessionSummary], shared: QueryFilter,
    grouping: Grouping = .handler, minSamples: Int, in database: QueryDatabase,
    context: CommandContext
  ) throws -> HandlerBaselines? {
    guard baseline.sinceChange else { return nil }
    guard grouping == .handler else {
      throw UsageError(
        "since=change starts each handler's baseline at its own change point; it needs "
          + "--by handler", command: context.command.name)
    }
    var search = shared
    search.method = baseline.method
    let baselines = try database.handlerBaselines(
      of: sessions, filter: search, minSamples: minSamples)
    for note in baselines.notes {
      context.console.error("Note: \(TerminalText.escaped(note))\n")
    }
    return baselines
  }

  /// Refuses sessions in both sides unless `--allow-overlap`.
  ///
  /// - Throws: `UsageError` naming the shared sessions (the first 10).
  static func refuseOverlap(
    baseline before: [SessionSummary], candidate after: [SessionSummary],
    arguments: ParsedArguments, context: CommandContext
  ) throws {
    let shared = Set(before.map(\.id)).intersection(after.map(\.id)).sorted()
    if !shared.isEmpty && !arguments.has(allowOverlapFlag) {
      throw UsageError(
        "The baseline and the candidate share "
          + (shared.count == 1
            ? "session \(shared[0])"
            : "sessions "
              + shared.prefix(10).map(String.init).joined(separator: ", ")
              + (shared.count > 10 ? ", …" : ""))
          + "; narrow one of them, or pass --allow-overlap", command: context.command.name)
    }
  }
}
