/// The one home of the summary tables (`Migrations/0005_summaries.sql`): writes a session's
/// summaries from its raw rows, reads them back (refusing damage), and tells whether a session
/// is summarized and whether its raw rows were pruned.
///
/// ```swift
/// try connection.transaction {
///   try SummaryTables.summarize(session: 3, connection: connection, unixNanoseconds: now)
/// }
/// let summaries = try SummaryTables.read(session: 3, connection: connection)
/// ```
public enum SummaryTables {
  /// What the file says of one session's summaries.
  public struct State: Equatable, Sendable {
    /// When it was summarized, Unix nanoseconds.
    public let summarizedUnixNanoseconds: Int64
    /// Its fires and outcomes when it was summarized.
    public let fires: Int64
    /// Its outcomes when it was summarized.
    public let outcomes: Int64
    /// When `sleeve prune` deleted its raw fires and outcomes; `nil` while they are kept.
    public let rawPrunedUnixNanoseconds: Int64?

    /// Whether its raw fires and outcomes are gone.
    public var isPruned: Bool { rawPrunedUnixNanoseconds != nil }
  }

  /// The summary state of every summarized session, by session id. Reads one small table.
  public static func states(connection: Connection) throws -> [Int64: State] {
    let statement = try connection.prepare(
      """
      SELECT session_id, summarized_unix_ns, fires, outcomes, raw_pruned_unix_ns
      FROM session_summaries
      """)
    var states: [Int64: State] = [:]
    while try statement.step() {
      states[statement.int64(at: 0)] = State(
        summarizedUnixNanoseconds: statement.int64(at: 1), fires: statement.int64(at: 2),
        outcomes: statement.int64(at: 3), rawPrunedUnixNanoseconds: statement.optionalInt64(at: 4))
    }
    return states
  }

  /// Writes session `session`'s summaries from its raw outcome rows, replacing any it had, and
  /// marks it summarized. Run it inside a transaction: the rows and the mark land together.
  ///
  /// - Returns: The summary rows written.
  /// - Throws: `StoreError.corrupt` for a ran outcome whose duration is not an integer, and
  ///   ``SummaryError/rawRowsPruned(session:)`` for a pruned session (its raw rows are gone, so
  ///   its summaries are the only record and are never rebuilt); `SQLiteError` when a write
  ///   fails.
  @discardableResult
  public static func summarize(session: Int64, connection: Connection, unixNanoseconds: Int64)
    throws -> Int
  {
    if let state = try state(of: session, connection: connection), state.isPruned {
      throw SummaryError.rawRowsPruned(session: session)
    }
    let summaries = try OutcomeSummaries.build(session: session, connection: connection)
    try delete(session: session, connection: connection)
    let insert = try connection.prepare(
      """
      INSERT INTO outcome_summaries (registration_id, variant, ok, failed, owner_released,
        skipped, cancelled, recursion_limit, scale, count, min_ns, max_ns, histogram)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    let insertFailure = try connection.prepare(
      """
      INSERT INTO failure_summaries (registration_id, variant, error_type, pattern, count,
        sample_message) VALUES (?, ?, ?, ?, ?, ?)
      """)
    for key in summaries.keys.sorted() {
      let summary = summaries[key]!
      insert.reset()
      try insert.bind(key.registration, at: 1)
      try insert.bind(Int64(key.variant), at: 2)
      for (offset, count) in summary.statusCounts.enumerated() {
        try insert.bind(Int64(clamping: count), at: Int32(3 + offset))
      }
      let histogram = summary.durations
      try insert.bind(Int64(histogram.scale), at: 9)
      try insert.bind(Int64(clamping: histogram.count), at: 10)
      try insert.bind(histogram.minimum, at: 11)
      try insert.bind(histogram.maximum, at: 12)
      try insert.bind(blob: HistogramCoding.encode(histogram), at: 13)
      try insert.run()
      for (kind, sample) in summary.failures.sorted(by: { $0.key < $1.key }) {
        insertFailure.reset()
        try insertFailure.bind(key.registration, at: 1)
        try insertFailure.bind(Int64(key.variant), at: 2)
        try insertFailure.bind(kind.type, at: 3)
        try insertFailure.bind(kind.pattern, at: 4)
        try insertFailure.bind(Int64(clamping: sample.count), at: 5)
        try insertFailure.bind(sample.message, at: 6)
        try insertFailure.run()
      }
    }
    let mark = try connection.prepare(
      """
      INSERT INTO session_summaries (session_id, summarized_unix_ns, fires, outcomes)
      VALUES (?1, ?2, (SELECT count(*) FROM fires WHERE id BETWEEN ?3 AND ?4),
        (SELECT count(*) FROM outcomes WHERE id BETWEEN ?3 AND ?4))
      """)
    let ids = RowID.range(of: session) ?? 1...0
    try mark.bind(session, at: 1)
    try mark.bind(unixNanoseconds, at: 2)
    try mark.bind(ids.lowerBound, at: 3)
    try mark.bind(ids.upperBound, at: 4)
    try mark.run()
    try SummaryRollups.update(afterSummarizing: session, connection: connection)
    return summaries.count
  }

  /// Session `session`'s summary state; `nil` when it is not summarized.
  public static func state(of session: Int64, connection: Connection) throws -> State? {
    let statement = try connection.prepare(
      """
      SELECT summarized_unix_ns, fires, outcomes, raw_pruned_unix_ns FROM session_summaries
      WHERE session_id = ?
      """)
    try statement.bind(session, at: 1)
    guard try statement.step() else { return nil }
    return State(
      summarizedUnixNanoseconds: statement.int64(at: 0), fires: statement.int64(at: 1),
      outcomes: statement.int64(at: 2), rawPrunedUnixNanoseconds: statement.optionalInt64(at: 3))
  }

  /// Session `session`'s stored summaries, by (registration, variant), with their failures.
  ///
  /// - Throws: ``SummaryError/damaged(session:detail:)`` for a row whose blob does not decode
  ///   or disagrees with its own columns (scale, count, minimum, maximum), a count or variant
  ///   out of range, or a failure of a key with no summary row.
  public static func read(session: Int64, connection: Connection) throws
    -> [OutcomeSummary.Key: OutcomeSummary]
  {
    guard let ids = RowID.range(of: session) else { return [:] }
    let statement = try connection.prepare(
      """
      SELECT registration_id, variant, ok, failed, owner_released, skipped, cancelled,
        recursion_limit, scale, count, min_ns, max_ns, histogram
      FROM outcome_summaries WHERE registration_id BETWEEN ? AND ?
      """)
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    var summaries: [OutcomeSummary.Key: OutcomeSummary] = [:]
    while try statement.step() {
      let registration = statement.int64(at: 0)
      func damaged(_ detail: String) -> SummaryError {
        .damaged(session: session, detail: "the summary of registration \(registration): \(detail)")
      }
      let variant: Int8
      let summary: OutcomeSummary
      do {
        (variant, summary) = try Self.summary(
          in: statement, variantAt: 1, countsFrom: 2, histogramAt: 12)
      } catch {
        throw damaged(error.reason)
      }
      let histogram = summary.durations
      guard histogram.scale == statement.int64(at: 8),
        statement.int64(at: 9) >= 0, histogram.count == UInt64(statement.int64(at: 9)),
        histogram.minimum == statement.optionalInt64(at: 10),
        histogram.maximum == statement.optionalInt64(at: 11)
      else { throw damaged("its histogram disagrees with its scale, count, min_ns or max_ns") }
      summaries[OutcomeSummary.Key(registration: registration, variant: variant)] = summary
    }
    let failures = try connection.prepare(
      """
      SELECT registration_id, variant, error_type, pattern, count, sample_message
      FROM failure_summaries WHERE registration_id BETWEEN ? AND ?
      """)
    try failures.bind(ids.lowerBound, at: 1)
    try failures.bind(ids.upperBound, at: 2)
    while try failures.step() {
      let key = OutcomeSummary.Key(
        registration: failures.int64(at: 0), variant: Int8(clamping: failures.int64(at: 1)))
      let count = failures.int64(at: 4)
      guard summaries[key] != nil, count > 0 else {
        throw SummaryError.damaged(
          session: session,
          detail: "a failure row of registration \(key.registration) has no summary or no count")
      }
      let kind = FailureKind(
        stored: failures.text(at: 2) ?? "-", pattern: failures.text(at: 3) ?? "")
      summaries[key]!.failures[kind] = FailureSample(
        count: UInt64(count), message: failures.text(at: 5))
    }
    return summaries
  }

  /// Why a stored summary row does not read, in a few words.
  struct RowDamage: Error {
    let reason: String
  }

  /// The variant and summary (counts and histogram, no failures) of the current row of a
  /// summary or rollup table: its variant at column `variant`, its six status counts from
  /// column `counts` (in `RecordCodes.Status` order) and its `HistogramCoding` blob at
  /// `histogram`. The one home of what makes such a row whole.
  ///
  /// - Throws: ``RowDamage`` for a variant other than -1, 0 or 1, a negative count, a blob that
  ///   is missing or does not decode, or a histogram whose count is not ok + failed.
  static func summary(
    in row: Statement, variantAt variant: Int32, countsFrom counts: Int32,
    histogramAt histogram: Int32
  ) throws(RowDamage) -> (Int8, OutcomeSummary) {
    let code = row.int64(at: variant)
    guard (-1...1).contains(code) else {
      throw RowDamage(reason: "variant \(code) is not -1, 0 or 1")
    }
    var summary = OutcomeSummary()
    for offset in 0..<summary.statusCounts.count {
      let count = row.int64(at: counts + Int32(offset))
      guard count >= 0 else { throw RowDamage(reason: "a negative count") }
      summary.statusCounts[offset] = UInt64(count)
    }
    guard let bytes = row.blob(at: histogram) else {
      throw RowDamage(reason: "its histogram is not a blob")
    }
    do {
      summary.durations = try HistogramCoding.decode(bytes)
    } catch {
      throw RowDamage(reason: (error as? HistogramCoding.DecodingError)?.reason ?? "\(error)")
    }
    guard summary.durations.count == summary.ran else {
      throw RowDamage(
        reason: "its histogram counts \(summary.durations.count) durations for \(summary.ran) runs")
    }
    return (Int8(code), summary)
  }

  /// Deletes session `session`'s summary rows and its mark (before it is summarized again, or
  /// when `merge` replaces it).
  public static func delete(session: Int64, connection: Connection) throws {
    guard let ids = RowID.range(of: session) else { return }
    for table in ["outcome_summaries", "failure_summaries"] {
      let statement = try connection.prepare(
        "DELETE FROM \(table) WHERE registration_id BETWEEN ? AND ?")
      try statement.bind(ids.lowerBound, at: 1)
      try statement.bind(ids.upperBound, at: 2)
      try statement.run()
    }
    let mark = try connection.prepare("DELETE FROM session_summaries WHERE session_id = ?")
    try mark.bind(session, at: 1)
    try mark.run()
    if connection.changes > 0 {
      try SummaryRollups.invalidate(blockOf: session, connection: connection)
    }
  }
}

/// Why a session's summaries cannot be written or read.
public enum SummaryError: Error, Equatable, CustomStringConvertible {
  /// A summary row of the session does not decode or contradicts itself.
  case damaged(session: Int64, detail: String)
  /// The session's raw rows were pruned: only its summaries remain.
  case rawRowsPruned(session: Int64)
  /// A rollup row of the block of sessions does not decode or contradicts itself.
  case damagedRollup(block: Int64, detail: String)

  /// One line naming the session and what to do.
  public var description: String {
    switch self {
    case .damaged(let session, let detail):
      "session \(session) has a damaged latency summary (\(detail)); answer from raw rows with "
        + "--exact, or rebuild its summaries with 'sleeve summarize --session \(session) --rebuild'"
    case .damagedRollup(let block, let detail):
      "the latency summary rollup of sessions \(max(1, SummaryRollups.sessions(of: block).lowerBound))–"
        + "\(SummaryRollups.sessions(of: block).upperBound) is damaged (\(detail)); answer with "
        + "--exact, or rebuild it with 'sleeve summarize --rebuild'"
    case .rawRowsPruned(let session):
      "session \(session)'s raw fires and outcomes were pruned; only its summaries remain"
    }
  }
}
