extension QueryDatabase {
  /// The sessions one side of a comparison selects, oldest first.
  ///
  /// - Throws: `QueryError.sessionNotFound` naming the side and its filters when none matches.
  public func sessions(of side: BaselineDiff.Side, matching filter: QueryFilter) throws
    -> [SessionSummary]
  {
    do {
      return try sessions(matching: filter)
    } catch QueryError.sessionNotFound(let selection) {
      throw QueryError.sessionNotFound("the \(side.rawValue) (\(selection))")
    }
  }

  /// Judges `candidate` sessions against `baseline` sessions, per group, reading one session
  /// at a time.
  ///
  /// - Parameter filter: Its handler filters (`--control`, `--handler`, `--flag`) apply to
  ///   both sides.
  public func diff(
    baseline: [SessionSummary], candidate: [SessionSummary], filter: QueryFilter,
    by grouping: Grouping, options: DiffOptions, baselines: HandlerBaselines? = nil
  ) throws -> BaselineDiff {
    try diffs(
      baseline: baseline, candidate: candidate, filter: filter, by: grouping, options: options,
      eachAlone: false, baselines: baselines
    ).together
  }

  /// Judges the candidate sessions together against the baseline and, with `eachAlone`, each
  /// candidate session alone against it too (`check --baseline`'s failure limit), reading
  /// every session once: the baseline's pools are built once and shared by every comparison
  /// (copied only where a comparison changes them). Both sides are answered from raw rows,
  /// or both from summaries: ``answerPlan(for:method:grouping:)`` over the two together.
  ///
  /// - Parameter baselines: Per handler, the baseline sessions it is judged against
  ///   (`since=change`); `nil`: every baseline session for every handler.
  public func diffs(
    baseline: [SessionSummary], candidate: [SessionSummary], filter: QueryFilter,
    by grouping: Grouping, options: DiffOptions, eachAlone: Bool,
    baselines: HandlerBaselines? = nil
  ) throws -> (together: BaselineDiff, each: [BaselineDiff]) {
    try translating {
      // One plan for both sides: a comparison never sets raw rows against summaries.
      try diffs(
        baseline: baseline, candidate: candidate, filter: filter, by: grouping,
        options: options, eachAlone: eachAlone,
        plan: answerPlan(for: baseline + candidate, method: filter.method, grouping: grouping),
        baselines: baselines)
    }
  }

  /// ``diffs(baseline:candidate:filter:by:options:eachAlone:baselines:)`` read by `plan`, the
  /// plan of both sides together (resolved once by the caller, who shows it).
  func diffs(
    baseline: [SessionSummary], candidate: [SessionSummary], filter: QueryFilter,
    by grouping: Grouping, options: DiffOptions, eachAlone: Bool, plan: AnswerPlan,
    baselines: HandlerBaselines? = nil
  ) throws -> (together: BaselineDiff, each: [BaselineDiff]) {
    try translating {
      func read(_ session: SessionSummary) throws -> [SessionTallies] {
        try tallies(
          of: [session], filter: filter, by: grouping, collectDurations: true, plan: plan)
      }
      var base = BaselineDiff(grouping: grouping, options: options)
      for session in baseline {
        for tallies in try read(session) {
          guard let baselines else {
            base.add(tallies, side: .baseline)
            continue
          }
          base.add(
            SessionTallies(
              session: tallies.session,
              groups: tallies.groups.filter { baselines.includes(session.id, for: $0.groupKey) }),
            side: .baseline)
        }
      }
      var together = base
      var each: [BaselineDiff] = []
      for session in candidate {
        var alone = base
        for tallies in try read(session) {
          together.add(tallies, side: .candidate)
          if eachAlone { alone.add(tallies, side: .candidate) }
        }
        if eachAlone {
          alone.finish()
          each.append(alone)
        }
      }
      together.finish()
      return (together, each)
    }
  }
}
