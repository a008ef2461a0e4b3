import SleeveStore

extension QueryDatabase {
  /// Runs `sleeve lint`'s checks over the selected sessions: the closure-sleeve pitfalls
  /// each leaves a trace of (see ``LintCheck``), with the evidence, pooled across sessions
  /// per control and handler.
  ///
  /// One pass over each session's outcomes (a second in a session with fires refused at the
  /// nesting limit, for the handlers that re-sent them); the interactions table is streamed;
  /// fires are read only where an interaction has nested fires, for orphaned handlers (from
  /// the first orphaning on) and for the chain of a refused fire. Memory: the small tables,
  /// one byte per fire and one entry per failed fire (its first throwing handler) when the
  /// session has interactions, and the synchronous durations over the frame budget.
  ///
  /// Every finding names the registration site a developer should open
  /// (``LintFinding/site``).
  ///
  /// - Throws: `QueryError.sessionNotFound` when the filter selects nothing; store errors
  ///   for damaged files.
  public func lint(filter: QueryFilter, options: LintOptions = LintOptions()) throws
    -> LintReport
  {
    try translating {
      let sessions = try sessions(matching: filter)
      let checks = LintCheck.allCases.filter { !options.disabled.contains($0) }
      let run = Set(checks)
      var sink = LintObservations()
      var totals: [String: Int64] = [:]
      var withoutData = 0
      let interactionChecks: Set<LintCheck> = [
        .deadInteraction, .rageInteraction, .errorInteraction,
      ]
      // Interactions belong to controls, not handlers: `--handler` and `--flag` leave them
      // out, `--control` keeps its own control's.
      let wantsInteractions =
        !run.isDisjoint(with: interactionChecks) && filter.handler == nil && filter.flag == nil
      // Pruned sessions have no raw rows to check: counted and said, never read as clean.
      let pruned = Set(try rawPrunedSessions(among: sessions))
      for session in sessions where !pruned.contains(session.id) {
        var data = try LintSessionData(database: self, session: session, filter: filter)
        let hasInteractions = try Self.hasInteractions(session, in: self)
        // Every handler a 0004 recorder writes has a lifetime: none means an older one.
        if !data.registrations.isEmpty && !data.hasLifetimes { withoutData += 1 }
        try data.scanOutcomes(
          database: self, budget: options.frameBudgetNanoseconds,
          factsPerFire: wantsInteractions && hasInteractions)
        if run.contains(.accumulation) { RegistrationChecks.accumulation(data, into: &sink) }
        if run.contains(.silentReplacement) {
          RegistrationChecks.silentReplacement(data, into: &sink)
        }
        if run.contains(.mixedWiring) { RegistrationChecks.mixedWiring(data, into: &sink) }
        if run.contains(.orphanedHandler) {
          try HandlerChecks.orphanedHandlers(data, database: self, into: &sink)
        }
        if run.contains(.mainThreadStall) { HandlerChecks.stalls(data, into: &sink) }
        if run.contains(.nestingPressure) {
          try HandlerChecks.nestingPressure(data, database: self, into: &sink)
        }
        if wantsInteractions && hasInteractions {
          try InteractionChecks(options: options, control: filter.control).run(
            data, database: self, into: &sink, totals: &totals)
        }
      }
      let suppressions = try LintSuppressionIndex(database: self)
      var active: [LintFinding] = []
      var suppressed: [LintFinding] = []
      for (key, observation) in sink.byKey where run.contains(key.check) {
        guard
          var finding = LintFindingText.finding(
            key, observation, options: options, interactions: totals[key.control] ?? 0)
        else { continue }
        finding.suppression = suppressions.match(finding)
        if finding.suppression == nil {
          active.append(finding)
        } else {
          suppressed.append(finding)
        }
      }
      return LintReport(
        findings: active.sorted(by: Self.lintOrder),
        suppressed: suppressed.sorted(by: Self.lintOrder),
        checks: checks, sessions: sessions.count, sessionsWithoutInteractionData: withoutData,
        sessionsRawPruned: pruned.count, options: options)
    }
  }

  /// Whether the session recorded any interaction (one primary-key seek).
  private static func hasInteractions(_ session: SessionSummary, in database: QueryDatabase)
    throws -> Bool
  {
    guard let ids = session.idRange else { return false }
    let statement = try database.connection.prepare(
      "SELECT EXISTS (SELECT 1 FROM interactions WHERE id BETWEEN ? AND ?)")
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    _ = try statement.step()
    return statement.int64(at: 0) != 0
  }

  /// Most serious first, then by control, handler and check.
  static func lintOrder(_ left: LintFinding, _ right: LintFinding) -> Bool {
    let order = LintCheck.allCases
    let leftCheck = order.firstIndex(of: left.check) ?? 0
    let rightCheck = order.firstIndex(of: right.check) ?? 0
    return (left.severity, left.control, left.handler ?? "", leftCheck, left.site ?? "")
      < (right.severity, right.control, right.handler ?? "", rightCheck, right.site ?? "")
  }
}
