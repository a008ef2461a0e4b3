/// The one home of the summary tables (`Migrations/0005_summaries.sql`): writes a session's
/// summaries from its raw rows (with their checksums, ``SummaryChecksums``), reads them back
/// (refusing damage: `SummaryTables+Reading.swift`), and tells whether a session is summarized
/// and whether its raw rows were pruned.
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
    /// The stored digest of its summary rows, checked against its row's checksum; `nil` in a
    /// file that keeps no checksums (``SummaryChecksums/areKept(connection:)``).
    let rowsDigest: Int64?

    /// Whether its raw fires and outcomes are gone.
    public var isPruned: Bool { rawPrunedUnixNanoseconds != nil }
  }

  /// The summary state of every summarized session, by session id. Reads two small tables.
  ///
  /// - Parameter verified: Whether to check each row's checksum (in a file that keeps them);
  ///   only the writers that replace summaries read them unchecked.
  /// - Throws: ``SummaryError/damaged(session:detail:)`` for a session whose row does not
  ///   match its checksum or has none, or a checksum whose session has no row (in a file that
  ///   keeps checksums).
  public static func states(connection: Connection, verified: Bool = true) throws
    -> [Int64: State]
  {
    let checksums = try verified && SummaryChecksums.areKept(connection: connection)
    let statement = try connection.prepare(stateQuery)
    var states: [Int64: State] = [:]
    while try statement.step() {
      states[statement.int64(at: 0)] = try state(from: statement, checksums: checksums)
    }
    if checksums {
      let orphans = try connection.prepare(
        """
        SELECT c.session_id FROM summary_checksums c
        LEFT JOIN session_summaries s ON s.session_id = c.session_id
        WHERE s.session_id IS NULL ORDER BY c.session_id LIMIT 1
        """)
      if try orphans.step() {
        throw SummaryError.damaged(
          session: orphans.int64(at: 0), detail: "its session_summaries row is missing")
      }
    }
    return states
  }

  /// The columns of a session's state: id, the four of `session_summaries`, its stored digest
  /// and checksum.
  private static let stateQuery = """
    SELECT s.session_id, s.summarized_unix_ns, s.fires, s.outcomes, s.raw_pruned_unix_ns,
      c.rows_digest, c.checksum
    FROM session_summaries s LEFT JOIN summary_checksums c ON c.session_id = s.session_id
    """

  /// The state in the current row of ``stateQuery``, its checksum checked when `checksums`.
  private static func state(from row: Statement, checksums: Bool) throws -> State {
    let session = row.int64(at: 0)
    var rowsDigest: Int64?
    if checksums {
      guard case .integer(let digest) = row.value(at: 5),
        case .integer(let stored) = row.value(at: 6)
      else { throw SummaryError.damaged(session: session, detail: "it has no checksum") }
      guard SummaryChecksums.sessionChecksum(columnsFrom: 1, of: row, rowsDigest: digest) == stored
      else {
        throw SummaryError.damaged(
          session: session, detail: "its session_summaries row does not match its checksum")
      }
      rowsDigest = digest
    }
    return State(
      summarizedUnixNanoseconds: row.int64(at: 1), fires: row.int64(at: 2),
      outcomes: row.int64(at: 3), rawPrunedUnixNanoseconds: row.optionalInt64(at: 4),
      rowsDigest: rowsDigest)
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
    if let state = try state(of: session, checksums: false, connection: connection),
      state.isPruned
    {
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
    try SummaryChecksums.seal(
      session: session,
      rowsDigest: verifiedDigest(session: session, checks: .written, connection: connection),
      connection: connection)
    try SummaryRollups.update(afterSummarizing: session, connection: connection)
    return summaries.count
  }

  /// Session `session`'s summary state; `nil` when it is not summarized.
  ///
  /// - Parameter verified: Whether to check its checksum (in a file that keeps them); only
  ///   the writers that replace a session's summaries read it unchecked.
  /// - Throws: ``SummaryError/damaged(session:detail:)`` for a row that does not match its
  ///   checksum or has none.
  public static func state(of session: Int64, connection: Connection, verified: Bool = true)
    throws -> State?
  {
    let checksums = try verified && SummaryChecksums.areKept(connection: connection)
    return try state(of: session, checksums: checksums, connection: connection)
  }

  static func state(of session: Int64, checksums: Bool, connection: Connection) throws -> State? {
    let statement = try connection.prepare(stateQuery + " WHERE s.session_id = ?")
    try statement.bind(session, at: 1)
    guard try statement.step() else { return nil }
    return try state(from: statement, checksums: checksums)
  }

  /// Marks session `session` pruned at `unixNanoseconds` (`sleeve prune`, in the transaction
  /// that deletes its raw rows), after checking its summaries: they are about to be its only
  /// record, so damaged ones are never kept in place of raw rows.
  ///
  /// - Throws: ``SummaryError/damaged(session:detail:)`` for summaries that do not read or do
  ///   not match their checksums.
  public static func markPruned(session: Int64, unixNanoseconds: Int64, connection: Connection)
    throws
  {
    let digest = try verifiedDigest(
      session: session,
      checks: SummaryChecksums.areKept(connection: connection) ? .checksums : .registrations,
      connection: connection)
    let mark = try connection.prepare(
      "UPDATE session_summaries SET raw_pruned_unix_ns = ? WHERE session_id = ?")
    try mark.bind(unixNanoseconds, at: 1)
    try mark.bind(session, at: 2)
    try mark.run()
    try SummaryChecksums.seal(session: session, rowsDigest: digest, connection: connection)
  }

  /// Checks the summaries `merge` just copied from session `inputSession` of the file at
  /// `input` into session `session`: against the checksums copied with them when the input
  /// keeps them, else as a file without checksums is read, and then stores their checksums.
  ///
  /// - Throws: ``SummaryError/damagedInput(path:session:detail:)`` for summaries that do not
  ///   read, contradict each other or do not match their checksums.
  public static func checkCopy(
    session: Int64, from input: String, inputSession: Int64, withChecksums: Bool,
    connection: Connection
  ) throws {
    do {
      let digest = try verifiedDigest(
        session: session, checks: withChecksums ? .checksums : .registrations,
        connection: connection)
      if !withChecksums {
        try SummaryChecksums.seal(session: session, rowsDigest: digest, connection: connection)
      }
    } catch SummaryError.damaged(_, let detail) {
      throw SummaryError.damagedInput(path: input, session: inputSession, detail: detail)
    }
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
    try SummaryChecksums.delete(session: session, connection: connection)
    let mark = try connection.prepare("DELETE FROM session_summaries WHERE session_id = ?")
    try mark.bind(session, at: 1)
    try mark.run()
    if connection.changes > 0 {
      try SummaryRollups.invalidate(blockOf: session, connection: connection)
    }
  }
}
