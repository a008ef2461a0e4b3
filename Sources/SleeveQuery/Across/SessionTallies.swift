/// What one session recorded, per group: the unit that comparisons across runs (`diff`,
/// `flaky`, `check --baseline`) are judged on.
public struct SessionTallies: Sendable {
  /// The session.
  public let session: SessionSummary
  /// Its groups that have outcomes, in order of first appearance. Under `.handler`, one per
  /// (control, handler) (`GroupKey.handler`), with its registration site and failure kinds.
  public let groups: [GroupTally]
}

extension QueryDatabase {
  /// Each session's tallies, in the order given, grouped as `grouping` says. Under `.handler`
  /// a handler is keyed by (control, handler), never by its name alone, so the same `id:` on
  /// two controls is two handlers. Every grouping collects failure kinds.
  ///
  /// - Parameters:
  ///   - sessions: The sessions, e.g. from ``sessions(matching:)``.
  ///   - filter: Its handler filters (`--control`, `--handler`, `--flag`) apply.
  ///   - collectDurations: Whether to keep the durations of outcomes that ran.
  ///   - plan: Raw rows or summaries for every session; by default decided over `sessions`
  ///     (``answerPlan(for:method:grouping:)``). A caller comparing two selections passes the
  ///     plan of both, so neither side is answered differently from the other.
  public func tallies(
    of sessions: [SessionSummary], filter: QueryFilter, by grouping: Grouping,
    collectDurations: Bool, plan: AnswerPlan? = nil
  ) throws -> [SessionTallies] {
    try translating {
      let plan = try plan ?? answerPlan(for: sessions, method: filter.method, grouping: grouping)
      return try sessions.map { session in
        var scan = OutcomeScan(
          database: self, sessions: [session], grouping: grouping, filter: filter,
          collectDurations: collectDurations)
        scan.byIdentity = true
        scan.collectFailures = true
        scan.plan = plan
        return SessionTallies(session: session, groups: try scan.run())
      }
    }
  }
}
