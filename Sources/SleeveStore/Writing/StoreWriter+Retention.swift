/// The retention writes: summaries of ended sessions and the prune of raw rows.
extension StoreWriter {
  /// Summarizes the ended sessions among `sessions` that have no summaries (all of them with
  /// `rebuild`, except pruned ones), each in a transaction of its own
  /// (``SessionSummarizer/summarize(sessions:rebuild:connection:unixNanoseconds:progress:)``).
  public func summarize(
    sessions: [Int64], rebuild: Bool, progress: (Int) -> Void = { _ in }
  ) throws -> SessionSummarizer.Report {
    try SessionSummarizer.summarize(
      sessions: sessions, rebuild: rebuild, connection: connection, progress: progress)
  }

  /// Plans a prune of `sessions` under `policy`, reading only
  /// (``RawRowPruner/plan(sessions:policy:connection:)``).
  public func planPrune(sessions: [Int64], policy: RetentionPolicy) throws -> RawRowPruner.Plan {
    try RawRowPruner.plan(sessions: sessions, policy: policy, connection: connection)
  }

  /// Prunes what `plan` names, one transaction per session, then reclaims the space
  /// (``RawRowPruner/execute(_:connection:reclaimSpace:unixNanoseconds:progress:)``).
  public func prune(_ plan: RawRowPruner.Plan, progress: (Int) -> Void = { _ in }) throws
    -> RawRowPruner.Result
  {
    try RawRowPruner.execute(plan, connection: connection, progress: progress)
  }
}
