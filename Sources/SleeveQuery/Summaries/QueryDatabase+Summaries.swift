import SleeveStore

/// One handler's summary in one session, for one variant, named as reports name it.
public struct HandlerSummary: Equatable, Sendable {
  /// The control's name; `nil` when the registration's row is missing.
  public let control: String?
  /// The handler, as reports name it (`-` when the registration's row is missing).
  public let handler: String
  /// Its registration site, when known.
  public let site: String?
  /// The gating flag's key, when gated.
  public let flag: String?
  /// The stored variant code (`RecordCodes.Variant`), -1 when not gated.
  public let variant: Int8
  /// The counts and durations.
  public let summary: OutcomeSummary
}

extension QueryDatabase {
  /// The session's summaries, by registration then variant: its stored ones when it is
  /// summarized (the only ones left once its raw rows are pruned), else built from its raw
  /// rows (``OutcomeSummaries/build(session:connection:)``), which equal them.
  ///
  /// - Throws: `StoreError.corrupt` for a ran outcome whose duration is not an integer;
  ///   ``QueryError/damagedSummary(_:)`` for a stored summary that does not decode.
  public func handlerSummaries(of session: SessionSummary) throws -> [HandlerSummary] {
    try translating {
      var names: [Int64: (String?, String, String?, String?)] = [:]
      if let ids = RowID.range(of: session.id) {
        let statement = try connection.prepare(
          """
          SELECT r.id, c.name, r.handler, r.site, r.flag_key FROM registrations r
          LEFT JOIN controls c ON c.id = r.control_id WHERE r.id BETWEEN ? AND ?
          """)
        try statement.bind(ids.lowerBound, at: 1)
        try statement.bind(ids.upperBound, at: 2)
        while try statement.step() {
          names[statement.int64(at: 0)] = (
            statement.text(at: 1), statement.text(at: 2) ?? "-", statement.text(at: 3),
            statement.text(at: 4)
          )
        }
      }
      let summaries = try summaries(of: session.id)
      return summaries.keys.sorted().map { key in
        let name = names[key.registration]
        return HandlerSummary(
          control: name?.0, handler: name?.1 ?? "-", site: name?.2, flag: name?.3,
          variant: key.variant, summary: summaries[key]!)
      }
    }
  }

  /// Session `id`'s summaries: its stored ones when it is summarized, else built now from its
  /// raw rows (a session that has not ended, or a file from before summaries).
  ///
  /// - Throws: ``QueryError/damagedSummary(_:)`` for a stored summary that does not decode,
  ///   does not match its checksum, or has rows without a `session_summaries` row.
  func summaries(of id: Int64) throws -> [OutcomeSummary.Key: OutcomeSummary] {
    do {
      guard try SummaryTables.state(of: id, connection: connection) != nil else {
        try SummaryTables.requireNoRows(of: id, connection: connection)
        return try OutcomeSummaries.build(session: id, connection: connection)
      }
      return try SummaryTables.read(session: id, connection: connection)
    } catch let error as SummaryError {
      throw QueryError.damagedSummary(error)
    }
  }
}
