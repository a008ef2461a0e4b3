import SleeveStore

extension QueryDatabase {
  /// One sentence for each of `--control`, `--handler` and `--flag` that matches nothing in the
  /// selected sessions (and one when each matches something but together they match no
  /// handler); empty when every filter matched. Commands print these on standard error, so an
  /// empty table from a mistyped name is never silent.
  ///
  /// A handler filter matches as `QueryFilter.handler` says; a flag filter also matches a
  /// flag defined or changed in the selected sessions (or from the command line).
  ///
  /// - Throws: `QueryError.sessionNotFound` when no session matches.
  public func unmatchedFilters(_ filter: QueryFilter) throws -> [String] {
    guard filter.narrowsHandlers else { return [] }
    return try translating { try unmatchedFilters(filter, in: sessions(matching: filter)) }
  }

  /// ``unmatchedFilters(_:)`` over `sessions`, the sessions `filter` selects (resolved once by
  /// the caller).
  func unmatchedFilters(_ filter: QueryFilter, in sessions: [SessionSummary]) throws -> [String] {
    guard filter.narrowsHandlers else { return [] }
    return try translating {
      var control = filter.control == nil
      var handler = filter.handler == nil
      var flag = filter.flag == nil
      var together = false
      let statement = try connection.prepare(
        """
        SELECT r.handler, r.identifier, r.site, c.name, r.flag_key FROM registrations r
        LEFT JOIN controls c ON c.id = r.control_id WHERE r.id BETWEEN ? AND ?
        """)
      for session in sessions {
        guard let ids = session.idRange else { continue }
        statement.reset()
        try statement.bind(ids.lowerBound, at: 1)
        try statement.bind(ids.upperBound, at: 2)
        while try statement.step() {
          let name = statement.text(at: 0) ?? ""
          let identifier = statement.text(at: 1)
          let site = statement.text(at: 2)
          let controlName = statement.text(at: 3)
          let flagKey = statement.text(at: 4)
          var only = QueryFilter()
          only.handler = filter.handler
          handler =
            handler
            || only.selects(
              handler: name, identifier: identifier, site: site, control: nil, flag: nil)
          control = control || controlName == filter.control
          flag = flag || flagKey == filter.flag
          together =
            together
            || filter.selects(
              handler: name, identifier: identifier, site: site, control: controlName,
              flag: flagKey)
        }
      }
      if !flag, let key = filter.flag {
        flag = try flagIsKnown(key, in: sessions.map(\.id))
      }
      var notes: [String] = []
      let scope = "in the selected sessions"
      if !control, let wanted = filter.control {
        notes.append("--control \(Self.quoted(wanted)) matched no control \(scope).")
      }
      if !handler, let wanted = filter.handler {
        notes.append(
          "--handler \(Self.quoted(wanted)) matched no handler \(scope) (a handler is matched "
            + "by its name, its id or its registration site, e.g. 'File.swift:42').")
      }
      if !flag, let wanted = filter.flag {
        notes.append("--flag \(Self.quoted(wanted)) matched no flag \(scope).")
      }
      if notes.isEmpty && !together {
        notes.append("The filters each match, but together they match no handler \(scope).")
      }
      return notes
    }
  }

  /// Whether a flag `key` is defined or changed in `sessions` or from the command line.
  private func flagIsKnown(_ key: String, in sessions: [Int64]) throws -> Bool {
    let selected = Set(sessions)
    let statement = try connection.prepare(
      """
      SELECT session_id FROM flags WHERE key = ?1
      UNION SELECT session_id FROM flag_events WHERE key = ?1
      """)
    try statement.bind(key, at: 1)
    while try statement.step() {
      guard let session = statement.optionalInt64(at: 0) else { return true }
      if selected.contains(session) { return true }
    }
    return false
  }

  /// `'value'` for a message.
  private static func quoted(_ value: String) -> String { "'\(value)'" }
}
