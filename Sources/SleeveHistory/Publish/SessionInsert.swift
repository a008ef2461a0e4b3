import SleeveStore

/// One session as one statement: its `sessions` row inserted unless the history holds its
/// UUID, and, from the same statement's data-modifying `WITH` clauses, every row of its other
/// tables, each table's columns bound as arrays and unnested on the server. One statement is
/// one transaction and one round trip: the session is wholly in the history or absent, and a
/// second publisher of the same UUID inserts nothing at all (its `sessions` insert returns no
/// row, so no other row has a session to join).
struct SessionInsert {
  /// The statement: its one result row is the session's history number, none when the UUID
  /// was there already.
  let sql: String
  /// Its parameters, `$1…`.
  let parameters: [PostgresValue]

  /// The statement for session `session` of `file`, whose `sessions` row is `sessionValues`
  /// (without its id), with `overrides` of columns by table.
  ///
  /// - Throws: ``PostgresArray/NULInText`` (with the table) for text holding NUL; the file's
  ///   errors.
  init(
    session: Int64, from file: Connection, sessionValues: [PostgresValue],
    extra: [(column: String, value: PostgresValue)],
    overrides: [String: [String: SourceValue]]
  ) throws {
    let sessionColumns =
      HistoryTables.sessions.columns.dropFirst().map(\.name) + extra.map(\.column)
    var parameters = sessionValues + extra.map(\.value)
    let placeholders = (1...parameters.count).map { "$\($0)" }.joined(separator: ", ")
    var sql = """
      WITH s AS (
        INSERT INTO sessions (\(sessionColumns.joined(separator: ", "))) VALUES (\(placeholders))
        ON CONFLICT (uuid) DO NOTHING RETURNING id)
      """
    var tables: [(HistoryTables.Table, [[SourceValue]])] = []
    for table in HistoryTables.heads + HistoryTables.bodies {
      tables.append(
        (
          table,
          try SourceRows.rows(
            table, session: session, from: file, overrides: overrides[table.name] ?? [:])
        ))
    }
    tables.append(
      (HistoryTables.flagEvents, try SourceRows.flagEventRows(session: session, from: file)))
    for (number, (table, rows)) in tables.enumerated() where !rows.isEmpty {
      var expressions: [String] = []
      var unnested: [String] = []
      for (index, column) in table.columns.enumerated() {
        if column.role == .session {
          expressions.append("s.id")
          continue
        }
        var array = PostgresArray(of: column.type)
        do {
          for row in rows { try Self.append(row[index], as: column, to: &array) }
        } catch {
          throw Refusal(reason: SourceRows.nulReason(table.name))
        }
        parameters.append(array.literal)
        let alias = "c\(index)"
        unnested.append("$\(parameters.count)::\(array.type)[]")
        expressions.append(column.role == .rowID ? "(s.id << 32) | u.\(alias)" : "u.\(alias)")
      }
      let aliases = table.columns.indices.filter { table.columns[$0].role != .session }
        .map { "c\($0)" }
      sql += """
        , t\(number) AS (
          INSERT INTO \(table.name) (\(table.columnList))
          SELECT \(expressions.joined(separator: ", "))
          FROM s, unnest(\(unnested.joined(separator: ", "))) AS u(\(aliases.joined(separator: ", "))))
        """
    }
    self.sql = sql + "\nSELECT id FROM s"
    self.parameters = parameters
  }

  /// A session not sent: its text holds NUL.
  struct Refusal: Error {
    /// Why, one line.
    let reason: String
  }

  private static func append(
    _ value: SourceValue, as column: HistoryTables.Column, to array: inout PostgresArray
  ) throws(PostgresArray.NULInText) {
    switch (column.role, value) {
    case (_, .null): array.appendNull()
    case (.rowID, .integer(let id)): array.append(id & 0xFFFF_FFFF)
    case (_, .integer(let integer)): array.append(integer)
    case (_, .real(let real)): array.append(real)
    case (_, .text(let text)): try array.append(text)
    case (_, .blob(let bytes)): array.append(bytes: bytes)
    }
  }
}
