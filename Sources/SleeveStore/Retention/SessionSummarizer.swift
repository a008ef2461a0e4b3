/// Summarizes ended sessions that have no summaries yet (`sleeve summarize`): files recorded
/// before migration 0005, or sessions whose summaries were lost or damaged (`rebuild`).
///
/// Each session is summarized in a transaction of its own, so an interrupted run keeps every
/// session it finished, and running it again continues where it stopped. A session that has
/// not ended (running or unterminated) is left alone: readers summarize those on demand from
/// their raw rows. A session whose raw rows were pruned is never rebuilt (its summaries are
/// its only record).
///
/// ```swift
/// let report = try SessionSummarizer.summarize(
///   sessions: [1, 2, 3], rebuild: false, connection: connection)
/// print(report.summarized.count, report.alreadySummarized.count)
/// ```
public enum SessionSummarizer {
  /// What one run did, session by session (each list in the order the sessions were given).
  public struct Report: Equatable, Sendable {
    /// A session summarized now.
    public struct Summarized: Equatable, Sendable {
      /// The session id.
      public let session: Int64
      /// The summary rows (one per handler and variant with outcomes) it got.
      public let summaries: Int
    }

    /// The sessions summarized now, with the summary rows each got.
    public var summarized: [Summarized] = []
    /// Sessions that were summarized already and left as they are.
    public var alreadySummarized: [Int64] = []
    /// Sessions skipped because they have not ended (running or unterminated).
    public var notEnded: [Int64] = []
    /// Sessions whose raw rows were pruned: kept as they are, even with `rebuild`.
    public var pruned: [Int64] = []
    /// Sessions the file no longer holds (deleted between selection and summary).
    public var missing: [Int64] = []

    /// An empty report.
    public init() {}

    /// The summary rows written, in all.
    public var summaries: Int { summarized.reduce(0) { $0 + $1.summaries } }
  }

  /// Summarizes each of `sessions` that has ended and has no summaries (with `rebuild`, also
  /// each summarized one whose raw rows remain, and then the rollups of their blocks), one
  /// transaction per session (and per block).
  ///
  /// - Parameters:
  ///   - sessions: The session ids, in the order to summarize them.
  ///   - rebuild: Whether to write again the summaries of sessions that have them.
  ///   - connection: A connection opened for writing (`SleeveDatabase.openForWriting`).
  ///   - unixNanoseconds: The time to record as the summary time (default: now).
  ///   - progress: Called after each session with the number done so far.
  /// - Throws: `StoreError.corrupt` for a ran outcome whose duration is not an integer, and
  ///   `SQLiteError` when a read or write fails; sessions finished before the failure stay
  ///   summarized.
  public static func summarize(
    sessions: [Int64], rebuild: Bool, connection: Connection,
    unixNanoseconds: Int64 = WallClock.unixNanoseconds(), progress: (Int) -> Void = { _ in }
  ) throws -> Report {
    var report = Report()
    let ended = try connection.prepare(
      "SELECT status = \(RecordCodes.SessionStatus.ended.sqlLiteral) FROM sessions WHERE id = ?")
    for (index, session) in sessions.enumerated() {
      try connection.transaction {
        ended.reset()
        try ended.bind(session, at: 1)
        guard try ended.step() else {
          report.missing.append(session)
          return
        }
        let hasEnded = ended.int64(at: 0) != 0
        ended.reset()
        guard hasEnded else {
          report.notEnded.append(session)
          return
        }
        // Unchecked: summarizing again is how a damaged summary is repaired.
        if let state = try SummaryTables.state(
          of: session, connection: connection, verified: false)
        {
          if state.isPruned {
            report.pruned.append(session)
            return
          }
          guard rebuild else {
            report.alreadySummarized.append(session)
            return
          }
        }
        let rows = try SummaryTables.summarize(
          session: session, connection: connection, unixNanoseconds: unixNanoseconds)
        report.summarized.append(Report.Summarized(session: session, summaries: rows))
      }
      progress(index + 1)
    }
    if rebuild {
      // The rollups of the selected sessions' blocks are written again from their (checked)
      // summaries, so a damaged rollup is repaired even where every session of it was pruned.
      for block in Set(sessions.map(SummaryRollups.block(of:))).sorted() {
        try connection.transaction {
          try SummaryRollups.rebuild(block: block, connection: connection)
        }
      }
    }
    return report
  }
}
