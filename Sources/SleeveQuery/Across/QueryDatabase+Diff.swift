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
    by grouping: Grouping, options: DiffOptions
  ) throws -> BaselineDiff {
    try translating {
      var diff = BaselineDiff(grouping: grouping, options: options)
      for (side, sessions) in [(BaselineDiff.Side.baseline, baseline), (.candidate, candidate)] {
        for session in sessions {
          for tallies in try tallies(
            of: [session], filter: filter, by: grouping, collectDurations: true)
          {
            diff.add(tallies, side: side)
          }
        }
      }
      diff.finish()
      return diff
    }
  }
}
