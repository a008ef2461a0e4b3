/// A question about outcomes, resolved once: the filter and grouping asked for, the sessions
/// they select, the plan the answer reads them by (raw rows or summaries), and the filters that
/// matched nothing. Every answer over outcomes is computed from one, so sessions and plan are
/// decided once per answer.
public struct OutcomeSelection: Sendable {
  /// The filter asked for.
  public let filter: QueryFilter
  /// The grouping asked for.
  public let grouping: Grouping
  /// The sessions the filter selects, oldest first.
  public let sessions: [SessionSummary]
  /// How the answer reads them.
  public let plan: AnswerPlan
  /// One sentence per `--control`, `--handler` or `--flag` filter that matched nothing in
  /// ``sessions`` (``QueryDatabase/unmatchedFilters(_:)``); empty when all matched.
  public let unmatchedFilters: [String]
}

extension QueryDatabase {
  /// Resolves `filter` and `grouping` into an ``OutcomeSelection``, in one snapshot.
  ///
  /// - Throws: ``QueryError/sessionNotFound(_:)`` when no session matches, and the plan's
  ///   refusals (``answerPlan(for:method:grouping:)``).
  public func select(_ filter: QueryFilter, by grouping: Grouping) throws -> OutcomeSelection {
    try translating {
      let sessions = try sessions(matching: filter)
      let unmatched = try unmatchedFilters(filter, in: sessions)
      let plan = try answerPlan(for: sessions, method: filter.method, grouping: grouping)
      return OutcomeSelection(
        filter: filter, grouping: grouping, sessions: sessions, plan: plan,
        unmatchedFilters: unmatched)
    }
  }
}
