import SleeveStore

extension QueryDatabase {
  /// Which of `sessions` had their raw fires, outcomes and interactions pruned
  /// (`sleeve prune`), ascending: only their summaries remain. Reads one small table.
  ///
  /// - Throws: `QueryError` when the read fails.
  public func rawPrunedSessions(among sessions: [SessionSummary]) throws -> [Int64] {
    try translating {
      let states = try SummaryTables.states(connection: connection)
      return sessions.map(\.id).filter { states[$0]?.isPruned == true }.sorted()
    }
  }

  /// Refuses a selection holding pruned sessions for an answer that needs raw rows.
  ///
  /// - Parameter need: What asks for raw rows, as the message names it (`sleeve export`).
  /// - Throws: `QueryError.rawRowsPruned` naming the pruned sessions.
  public func requireRawRows(of sessions: [SessionSummary], for need: String) throws {
    let pruned = try rawPrunedSessions(among: sessions)
    guard pruned.isEmpty else { throw QueryError.rawRowsPruned(sessions: pruned, need: need) }
  }
}
