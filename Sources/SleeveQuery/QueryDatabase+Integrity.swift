import SleeveStore

extension QueryDatabase {
  /// Checks the file's structure before a decision is made from it: SQLite's `integrity_check`
  /// (every page of every table and index is read; b-tree structure, free lists, record
  /// formats, NOT NULL and CHECK constraints, and index contents against their tables).
  ///
  /// Then rows that belong to no session (`UnownedRows`): every answer reads a session's rows
  /// by its id range, so a decision would leave them out unseen.
  ///
  /// `sleeve check` and `sleeve report` call this so that a gate never decides on a damaged
  /// file; it reads the whole file once (see BENCHMARKS.md for its cost).
  ///
  /// - Throws: `QueryError.store(.corrupt)` with SQLite's first finding when the check fails,
  ///   or naming the tables and counts of rows that belong to no session.
  public func verifyIntegrity() throws {
    let findings = try translating { () throws -> [String] in
      do {
        let statement = try connection.prepare("PRAGMA integrity_check(5)")
        var lines: [String] = []
        while try statement.step() { lines.append(statement.text(at: 0) ?? "") }
        return lines
      } catch let error as SQLiteError where error.primaryCode == SQLiteError.corrupt {
        return [error.message]  // damage bad enough that the check itself cannot go on
      }
    }
    guard findings == ["ok"] else { throw integrityFailure(findings) }
    let unowned = try unownedRows()
    guard unowned.isEmpty else {
      throw QueryError.store(
        .corrupt(
          path: path,
          detail: "\(unowned) belong to no session: their ids lie outside every session's id "
            + "range, as an older writer or another tool writes them, so no answer would count "
            + "them"))
    }
  }

  private func integrityFailure(_ findings: [String]) -> QueryError {
    let first = findings.first.map { $0.split(whereSeparator: \.isNewline).joined(separator: " ") }
    return QueryError.store(
      .corrupt(
        path: path,
        detail: "integrity check failed: \((first ?? "no answer").prefix(300))"
          + (findings.count > 1 ? " (and more)" : "")))
  }
}

extension QueryDatabase {
  /// The rows of the id-partitioned tables that belong to no session (see `UnownedRows`):
  /// no answer includes them.
  public func unownedRows() throws -> UnownedRows {
    try translating { try UnownedRows.count(on: connection) }
  }
}
