import SleeveStore

extension QueryDatabase {
  /// The sessions a filter selects, oldest first.
  ///
  /// - Throws: `QueryError.sessionNotFound` when none matches.
  public func sessions(matching filter: QueryFilter) throws -> [SessionSummary] {
    try translating {
      var conditions: [String] = []
      var values: [SQLValue] = []
      switch filter.session {
      case .id(let id):
        conditions.append("id = ?")
        values.append(.integer(id))
      case .uuid(let uuid):
        // UUIDs compare case-insensitively (RFC 9562): a file may hold one in upper case.
        conditions.append("lower(uuid) = ?")
        values.append(.text(uuid.lowercased()))
      case .last, .all:
        break
      }
      if let glob = filter.nameGlob {
        conditions.append("name GLOB ?")
        values.append(.text(glob))
      }
      if let since = filter.sinceUnixNanoseconds {
        conditions.append("started_unix_ns >= ?")
        values.append(.integer(since))
      }
      let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
      let limit = filter.session == .last ? " ORDER BY started_unix_ns DESC, id DESC LIMIT 1" : ""
      let statement = try connection.prepare(
        """
        SELECT id, uuid, name, started_unix_ns, coalesce(ended_unix_ns, heartbeat_unix_ns),
          status, host, pid, heartbeat_unix_ns, write_errors, failed_events, dropped_events,
          os, runtime, sleeve_version, sqlite_version, metadata_json, tags_json, durability
        FROM sessions
        """ + whereClause + limit)
      try statement.bind(values)
      var rows: [SessionSummary] = []
      while try statement.step() {
        rows.append(try summary(from: statement))
      }
      guard !rows.isEmpty else {
        throw QueryError.sessionNotFound(Self.describe(filter))
      }
      return rows.sorted { ($0.startedUnixNanoseconds, $0.id) < ($1.startedUnixNanoseconds, $1.id) }
    }
  }

  private func summary(from row: Statement) throws -> SessionSummary {
    let id = row.int64(at: 0)
    let liveness = SessionLiveness.classify(
      status: row.text(at: 5) ?? "", host: row.text(at: 6) ?? "", pid: row.int64(at: 7),
      heartbeatUnixNanoseconds: row.int64(at: 8))
    let metadata: [String: String] = [
      "host": row.text(at: 6) ?? "", "pid": String(row.int64(at: 7)), "os": row.text(at: 12) ?? "",
      "runtime": row.text(at: 13) ?? "", "sleeveVersion": row.text(at: 14) ?? "",
      "sqliteVersion": row.text(at: 15) ?? "", "metadataJSON": row.text(at: 16) ?? "{}",
      "tagsJSON": row.text(at: 17) ?? "[]", "durability": row.text(at: 18) ?? "",
    ]
    return SessionSummary(
      id: id, uuid: row.text(at: 1) ?? "", name: row.text(at: 2) ?? "",
      startedUnixNanoseconds: row.int64(at: 3), lastSeenUnixNanoseconds: row.int64(at: 4),
      liveness: liveness, writeErrors: Int(row.int64(at: 9)), failedEvents: Int(row.int64(at: 10)),
      droppedEvents: Int(row.int64(at: 11)), fires: try count("fires", session: id),
      outcomes: try count("outcomes", session: id), metadata: metadata)
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
    return parts.joined(separator: " ")
  }
}
