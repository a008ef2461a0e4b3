import SleeveStore

extension QueryDatabase {
  /// The sessions a filter selects, oldest first.
  ///
  /// - Parameter checkingSummaries: Whether a summarized session's `session_summaries` row
  ///   (the counts shown for it) must match its checksum; only `sleeve summarize`, which
  ///   repairs damaged summaries, selects without.
  /// - Throws: `QueryError.sessionNotFound` when none matches;
  ///   ``SummaryError/damaged(session:detail:)`` for a summary row that does not match its
  ///   checksum.
  public func sessions(matching filter: QueryFilter, checkingSummaries: Bool = true) throws
    -> [SessionSummary]
  {
    try translating {
      var conditions: [String] = []
      var values: [SQLValue] = []
      switch filter.session {
      case .id(let id):
        conditions.append("s.id = ?")
        values.append(.integer(id))
      case .uuid(let uuid):
        // UUIDs compare case-insensitively (RFC 9562): a file may hold one in upper case.
        conditions.append("lower(s.uuid) = ?")
        values.append(.text(uuid.lowercased()))
      case .last, .all:
        break
      }
      if let ranges = filter.sessionNumbers {
        // One parameter however many ranges: a JSON array of [first, last] pairs.
        conditions.append(
          "EXISTS (SELECT 1 FROM json_each(?) r WHERE s.id BETWEEN "
            + "json_extract(r.value, '$[0]') AND json_extract(r.value, '$[1]'))")
        values.append(
          .text(
            "[" + ranges.map { "[\($0.lowerBound),\($0.upperBound)]" }.joined(separator: ",")
              + "]"))
      }
      if let glob = filter.nameGlob {
        conditions.append("s.name GLOB ?")
        values.append(.text(glob))
      }
      if let since = filter.sinceUnixNanoseconds {
        conditions.append("s.started_unix_ns >= ?")
        values.append(.integer(since))
      }
      if let commit = filter.commit {
        conditions.append(
          commit.count >= QueryFilter.minimumCommitPrefix
            ? "lower(substr(x.commit_sha, 1, length(?))) = lower(?)" : "x.commit_sha = ?")
        values += Array(
          repeating: .text(commit),
          count: commit.count >= QueryFilter.minimumCommitPrefix ? 2 : 1)
      }
      if let branch = filter.branch {
        conditions.append("x.branch = ?")
        values.append(.text(branch))
      }
      if let glob = filter.testGlob {
        conditions.append("(x.test_id GLOB ? OR x.test_name GLOB ?)")
        values += [.text(glob), .text(glob)]
      }
      if let tag = filter.tag {
        conditions.append("(\(Self.hasTag("s.tags_json")) OR \(Self.hasTag("x.test_tags_json")))")
        values += [.text(tag), .text(tag)]
      }
      let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
      let newest = " ORDER BY s.started_unix_ns DESC, s.id DESC LIMIT ?"
      var limit = filter.limit
      if filter.session == .last { limit = 1 }
      if let count = limit { values.append(.integer(Int64(clamping: max(0, count)))) }
      let statement = try connection.prepare(
        """
        SELECT s.id, s.uuid, s.name, s.started_unix_ns,
          coalesce(s.ended_unix_ns, s.heartbeat_unix_ns), s.status, s.host, s.pid,
          s.heartbeat_unix_ns, s.write_errors, s.failed_events, s.dropped_events, s.os,
          s.runtime, s.sleeve_version, s.sqlite_version, s.metadata_json, s.tags_json,
          s.durability, \(SessionContext.columns("x"))
        FROM sessions s LEFT JOIN session_context x ON x.session_id = s.id
        """ + whereClause + (limit == nil ? "" : newest))
      try statement.bind(values)
      // Checked against their checksums: the counts of a pruned session are only here.
      let states = try SummaryTables.states(
        connection: connection, verified: checkingSummaries)
      var rows: [SessionSummary] = []
      while try statement.step() {
        rows.append(try summary(from: statement, states: states))
      }
      guard !rows.isEmpty else {
        throw QueryError.sessionNotFound(Self.describe(filter) + (try unrecordedContext(filter)))
      }
      return rows.sorted { ($0.startedUnixNanoseconds, $0.id) < ($1.startedUnixNanoseconds, $1.id) }
    }
  }

  private func summary(from row: Statement, states: [Int64: SummaryTables.State]) throws
    -> SessionSummary
  {
    let id = row.int64(at: 0)
    // An ended, summarized session's counts are those its summary recorded when it ended (no
    // row is added to an ended session): read from one row, not counted over its raw rows,
    // and the only counts left once they are pruned.
    let state = row.text(at: 5) == RecordCodes.SessionStatus.ended.name ? states[id] : nil
    let liveness = SessionLiveness.classify(
      status: row.text(at: 5) ?? "", host: row.text(at: 6) ?? "", pid: row.int64(at: 7),
      heartbeatUnixNanoseconds: row.int64(at: 8))
    // Capped as the recorder caps what it writes: a file written otherwise (by hand, by a
    // merge of one) shows no longer a name than the recorder could have recorded.
    let name = { (column: Int32) in RecordedText.capped(row.text(at: column) ?? "", to: .name) }
    let metadata: [String: String] = [
      "host": name(6), "pid": String(row.int64(at: 7)), "os": name(12), "runtime": name(13),
      "sleeveVersion": name(14), "sqliteVersion": name(15),
      "metadataJSON": row.text(at: 16) ?? "{}", "tagsJSON": row.text(at: 17) ?? "[]",
      "durability": name(18),
    ]
    return SessionSummary(
      id: id, uuid: name(1), name: name(2),
      startedUnixNanoseconds: row.int64(at: 3), lastSeenUnixNanoseconds: row.int64(at: 4),
      liveness: liveness, writeErrors: Int(row.int64(at: 9)), failedEvents: Int(row.int64(at: 10)),
      droppedEvents: Int(row.int64(at: 11)),
      fires: try state.map { Int(clamping: $0.fires) } ?? count("fires", session: id),
      outcomes: try state.map { Int(clamping: $0.outcomes) } ?? count("outcomes", session: id),
      metadata: metadata, context: SessionContext(row: row, at: 19))
  }

  /// SQL that is true when the JSON array in `column` holds the bound text (a column that is
  /// not a JSON array holds none).
  private static func hasTag(_ column: String) -> String {
    """
    EXISTS (SELECT 1 FROM json_each(CASE WHEN json_valid(\(column)) \
    AND json_type(\(column)) = 'array' THEN \(column) ELSE '[]' END) AS t \
    WHERE t.type = 'text' AND t.value = ?)
    """
  }

  private func count(_ table: String, session: Int64) throws -> Int {
    guard let ids = RowID.range(of: session) else { return 0 }  // owns no rows
    let statement = try connection.prepare(
      "SELECT count(*) FROM \(table) WHERE id BETWEEN ? AND ?")
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    _ = try statement.step()
    return Int(statement.int64(at: 0))
  }

  /// ` (no session in this file records a branch: …)` when a context filter asks for a field
  /// no session has, saying how sessions record it; empty otherwise.
  private func unrecordedContext(_ filter: QueryFilter) throws -> String {
    let asked: [(String?, String, String)] = [
      (filter.commit, "commit_sha", "a commit"), (filter.branch, "branch", "a branch"),
      (filter.testGlob, "coalesce(test_id, test_name)", "a test"),
    ]
    var missing: [String] = []
    for (value, column, what) in asked where value != nil {
      let statement = try connection.prepare(
        "SELECT EXISTS (SELECT 1 FROM session_context WHERE \(column) IS NOT NULL)")
      _ = try statement.step()
      if statement.int64(at: 0) == 0 { missing.append(what) }
    }
    guard !missing.isEmpty else { return "" }
    return " (no session in this file records "
      + missing.joined(separator: " or ")
      + ": sessions recorded in CI record their commit and branch, SLEEVE_COMMIT and "
      + "SLEEVE_BRANCH set them anywhere, and the test trait records the test)"
  }

  static func describe(_ filter: QueryFilter) -> String {
    var parts: [String] = []
    switch filter.session {
    case .last: parts.append("--session last")
    case .all: parts.append("--session all")
    case .id(let id): parts.append("--session \(id)")
    case .uuid(let uuid): parts.append("--session \(uuid)")
    }
    if let glob = filter.nameGlob { parts.append("--name '\(glob)'") }
    if filter.sinceUnixNanoseconds != nil { parts.append("--since") }
    if let commit = filter.commit { parts.append("--commit '\(commit)'") }
    if let branch = filter.branch { parts.append("--branch '\(branch)'") }
    if let glob = filter.testGlob { parts.append("--test '\(glob)'") }
    if let tag = filter.tag { parts.append("--tag '\(tag)'") }
    if let limit = filter.limit { parts.append("--last \(limit)") }
    return parts.joined(separator: " ")
  }
}
