extension SummaryTables {
  /// What a read of a session's summary rows checks besides each row against itself and the
  /// rows against each other and the session's `session_summaries` row.
  enum Checks: Equatable {
    /// Their digest against the stored one (a file that keeps checksums): a row changed,
    /// added or deleted, or a registration row deleted since, is refused.
    case checksums
    /// That every row's registration row exists (a file without checksums, or one being
    /// sealed): a phantom row is refused.
    case registrations
    /// Nothing more: rows just written, whose digest is being computed (the outcomes of a
    /// registration row lost to a failed write are summarized as queries count them, and the
    /// digest records that its row was missing).
    case written
  }

  /// Session `session`'s stored summaries, by (registration, variant), with their failures.
  /// Every summary is checked before it is returned: in a file that keeps checksums, against
  /// them (``SummaryChecksums``); in one that does not, by what its rows say of themselves and
  /// each other. `[:]` for a session that is not summarized (and has no summary rows).
  ///
  /// - Throws: ``SummaryError/damaged(session:detail:)`` for a row whose blob does not decode
  ///   or disagrees with its own columns (scale, count, minimum, maximum), a count or variant
  ///   out of range, failures of a key with no summary row or not adding up to its failed
  ///   count, counts not adding up to the session's outcomes, summary rows of a session with
  ///   no `session_summaries` row, a registration row missing (without checksums), or rows
  ///   that do not match their checksums.
  public static func read(session: Int64, connection: Connection) throws
    -> [OutcomeSummary.Key: OutcomeSummary]
  {
    let checksums = try SummaryChecksums.areKept(connection: connection)
    guard
      let read = try read(
        session: session, checks: checksums ? .checksums : .registrations,
        connection: connection)
    else {
      try requireNoRows(of: session, connection: connection)
      return [:]
    }
    return read.summaries
  }

  /// Throws ``SummaryError/damaged(session:detail:)`` when session `session`, which has no
  /// `session_summaries` row, has summary rows (its mark was deleted: read from its raw rows,
  /// or from none once they are pruned, it would answer without them).
  public static func requireNoRows(of session: Int64, connection: Connection) throws {
    guard let ids = RowID.range(of: session) else { return }
    for table in ["outcome_summaries", "failure_summaries"] {
      let statement = try connection.prepare(
        "SELECT 1 FROM \(table) WHERE registration_id BETWEEN ? AND ? LIMIT 1")
      try statement.bind(ids.lowerBound, at: 1)
      try statement.bind(ids.upperBound, at: 2)
      if try statement.step() {
        throw SummaryError.damaged(
          session: session, detail: "it has \(table) rows but no session_summaries row")
      }
    }
  }

  /// The digest of session `session`'s summary rows as they are, after `checks`.
  ///
  /// - Throws: ``SummaryError/damaged(session:detail:)`` as ``read(session:connection:)``
  ///   does, and for a session that is not summarized.
  static func verifiedDigest(session: Int64, checks: Checks, connection: Connection) throws
    -> Int64
  {
    guard let read = try read(session: session, checks: checks, connection: connection) else {
      throw SummaryError.damaged(session: session, detail: "it has no session_summaries row")
    }
    return read.digest
  }

  /// Reads and checks session `session`'s summaries and computes the digest of their rows (in
  /// key order: each outcome_summaries row's columns, its registration as its number within
  /// the session and whether its row exists, then each failure_summaries row's); `nil` when it
  /// is not summarized.
  private static func read(session: Int64, checks: Checks, connection: Connection) throws
    -> (summaries: [OutcomeSummary.Key: OutcomeSummary], digest: Int64)?
  {
    guard
      let state = try state(of: session, checksums: checks == .checksums, connection: connection)
    else { return nil }
    guard let ids = RowID.range(of: session) else { return ([:], 0) }
    func damaged(_ detail: String) -> SummaryError {
      .damaged(session: session, detail: detail)
    }
    var registered: Set<Int64> = []
    let registrations = try connection.prepare(
      "SELECT id FROM registrations WHERE id BETWEEN ? AND ?")
    try registrations.bind(ids.lowerBound, at: 1)
    try registrations.bind(ids.upperBound, at: 2)
    while try registrations.step() { registered.insert(registrations.int64(at: 0)) }
    var digest = SummaryDigest(domain: "outcome_summaries")
    let statement = try connection.prepare(
      """
      SELECT registration_id, variant, ok, failed, owner_released, skipped, cancelled,
        recursion_limit, scale, count, min_ns, max_ns, histogram
      FROM outcome_summaries WHERE registration_id BETWEEN ? AND ?
      ORDER BY registration_id, variant
      """)
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    var summaries: [OutcomeSummary.Key: OutcomeSummary] = [:]
    var outcomes: UInt64 = 0
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
      let key = OutcomeSummary.Key(registration: registration, variant: variant)
      guard summaries[key] == nil else { throw damaged("it has two rows for one variant") }
      let exists = registered.contains(registration)
      guard exists || checks != .registrations else {
        throw damaged("its registrations row is missing")
      }
      for count in summary.statusCounts {
        let (sum, overflow) = outcomes.addingReportingOverflow(count)
        guard !overflow else { throw damaged("its counts overflow") }
        outcomes = sum
      }
      if case .integer(let id) = statement.value(at: 0) {
        digest.add(integer: RowID.number(of: id))
      } else {
        digest.add(column: 0, of: statement)
      }
      digest.add(columns: 1..<13, of: statement)
      digest.add(byte: exists ? 1 : 0)
      summaries[key] = summary
    }
    guard state.outcomes >= 0, outcomes == UInt64(state.outcomes) else {
      throw damaged(
        "its summaries count \(outcomes) outcomes, its session_summaries row \(state.outcomes)")
    }
    digest.add(text: "failure_summaries")
    let failures = try connection.prepare(
      """
      SELECT registration_id, variant, error_type, pattern, count, sample_message
      FROM failure_summaries WHERE registration_id BETWEEN ? AND ?
      ORDER BY registration_id, variant, error_type, pattern
      """)
    try failures.bind(ids.lowerBound, at: 1)
    try failures.bind(ids.upperBound, at: 2)
    var failed: [OutcomeSummary.Key: UInt64] = [:]
    while try failures.step() {
      let key = OutcomeSummary.Key(
        registration: failures.int64(at: 0), variant: Int8(clamping: failures.int64(at: 1)))
      let count = failures.int64(at: 4)
      guard summaries[key] != nil, count > 0 else {
        throw damaged(
          "a failure row of registration \(key.registration) has no summary or no count")
      }
      let kind = FailureKind(
        stored: failures.text(at: 2) ?? "-", pattern: failures.text(at: 3) ?? "")
      guard summaries[key]!.failures[kind] == nil else {
        throw damaged("registration \(key.registration) has two failure rows of one kind")
      }
      summaries[key]!.failures[kind] = FailureSample(
        count: UInt64(count), message: failures.text(at: 5))
      let (sum, overflow) = failed[key, default: 0].addingReportingOverflow(UInt64(count))
      guard !overflow else {
        throw damaged("the failures of registration \(key.registration) overflow")
      }
      failed[key] = sum
      if case .integer(let id) = failures.value(at: 0) {
        digest.add(integer: RowID.number(of: id))
      } else {
        digest.add(column: 0, of: failures)
      }
      digest.add(columns: 1..<6, of: failures)
    }
    let failedStatus = Int(RecordCodes.Status.failed.rawValue)
    for key in summaries.keys.sorted()
    where failed[key, default: 0] != summaries[key]!.statusCounts[failedStatus] {
      throw damaged(
        "the failures of registration \(key.registration) by kind add up to "
          + "\(failed[key, default: 0]), not its \(summaries[key]!.statusCounts[failedStatus])")
    }
    if checks == .checksums && state.rowsDigest != digest.stored {
      throw damaged("its summary rows do not match their checksum")
    }
    return (summaries, digest.stored)
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
}

extension SummaryTables {
  /// How session `session`'s summary state reads once its raw rows are pruned, as `prune`
  /// would seal it at `unixNanoseconds`: what a shared history stores of a session it copies
  /// from a file that still has them.
  package struct PrunedSeal: Equatable, Sendable {
    /// `session_summaries.raw_pruned_unix_ns`: the file's, else `unixNanoseconds`.
    package let rawPrunedUnixNanoseconds: Int64
    /// `summary_checksums.rows_digest`, checked against the rows first.
    package let rowsDigest: Int64
    /// `summary_checksums.checksum` over the pruned row.
    package let checksum: Int64
  }

  /// Session `session`'s ``PrunedSeal``, its summary rows verified first; `nil` when it has
  /// no summaries.
  ///
  /// - Throws: ``SummaryError/damaged(session:detail:)`` for summaries that do not read or do
  ///   not match their checksums.
  package static func prunedSeal(session: Int64, unixNanoseconds: Int64, connection: Connection)
    throws -> PrunedSeal?
  {
    let row = try connection.prepare(
      """
      SELECT summarized_unix_ns, fires, outcomes, coalesce(raw_pruned_unix_ns, ?)
      FROM session_summaries WHERE session_id = ?
      """)
    try row.bind(unixNanoseconds, at: 1)
    try row.bind(session, at: 2)
    guard try row.step() else { return nil }
    let digest = try verifiedDigest(
      session: session,
      checks: SummaryChecksums.areKept(connection: connection) ? .checksums : .registrations,
      connection: connection)
    return PrunedSeal(
      rawPrunedUnixNanoseconds: row.int64(at: 3), rowsDigest: digest,
      checksum: SummaryChecksums.sessionChecksum(columnsFrom: 0, of: row, rowsDigest: digest))
  }
}
