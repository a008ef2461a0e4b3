import SleeveStore

/// Deletes whole sessions (their rows and summaries) from a history: those that ended before a
/// time, oldest first, in batches of ``batchSize`` sessions, each batch one transaction. A
/// prune cut short leaves every session whole or gone, and running it again finishes it;
/// publishers and readers go on meanwhile (a reader sees one snapshot, before or after a
/// batch).
///
/// ```swift
/// let report = try HistoryPruner(location).prune(endedBefore: cutoff)
/// ```
public final class HistoryPruner {
  /// What a prune did (or, dry, would do).
  public struct Report: Equatable, Sendable {
    /// The sessions deleted (or that would be), by UUID, oldest first.
    public var sessions: [String] = []
    /// How many transactions it took.
    public var batches = 0
  }

  /// Sessions deleted per transaction.
  public static let batchSize = 100

  private let connection: PostgresConnection

  /// Connects to the history and checks its schema.
  ///
  /// - Throws: `HistoryError` (69 unreachable, 77 denied, 66 no such database, 65 a history
  ///   without this binary's schema).
  public init(_ location: HistoryLocation) throws(HistoryError) {
    connection = try PostgresConnection(location)
    try HistorySchema.requireCurrent(connection)
  }

  /// Deletes the sessions that ended (or, never ended, were last seen) before
  /// `unixNanoseconds`; with `dryRun`, only lists them.
  ///
  /// - Parameter progress: Called after each batch with how many sessions are gone so far.
  /// - Throws: `HistoryError`; 77 for a role that may not delete (what was deleted before
  ///   stays deleted).
  public func prune(
    endedBefore unixNanoseconds: Int64, dryRun: Bool = false, progress: (Int) -> Void = { _ in }
  ) throws -> Report {
    var report = Report()
    var after: Int64 = 0
    while true {
      let rows = try connection.execute(
        """
        SELECT id, uuid FROM sessions
        WHERE coalesce(ended_unix_ns, heartbeat_unix_ns) < $1 AND id > $2
        ORDER BY id LIMIT \(Self.batchSize)
        """, [.integer(unixNanoseconds), .integer(after)])
      guard rows.count > 0 else { return report }
      let ids = (0..<rows.count).compactMap { rows.integer($0, 0) }
      after = ids.max() ?? after
      if !dryRun { try delete(ids) }
      report.sessions += (0..<rows.count).map { rows.text($0, 1) ?? "" }
      report.batches += 1
      progress(report.sessions.count)
    }
  }

  private func delete(_ ids: [Int64]) throws {
    try connection.transaction {
      for table in (HistoryTables.bodies + HistoryTables.heads).reversed() {
        switch table.key {
        case .session(let column):
          try connection.execute(
            "DELETE FROM \(table.name) WHERE \(column) = ANY($1::bigint[])", [.integers(ids)])
        case .rowRange(let column):
          try connection.execute(
            "DELETE FROM \(table.name) WHERE \(column) IN (SELECT t.\(column) FROM "
              + "\(HistoryTables.rowsOfSessions(table, parameter: 1)))", [.integers(ids)])
        }
      }
      try connection.execute(
        "DELETE FROM flag_events WHERE session_id = ANY($1::bigint[])", [.integers(ids)])
      try connection.execute(
        "DELETE FROM sessions WHERE id = ANY($1::bigint[])", [.integers(ids)])
    }
  }
}

@available(*, unavailable)
extension HistoryPruner: Sendable {}
