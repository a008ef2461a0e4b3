import SleeveStore

/// A value read from the scratch file, typed by its column's declaration.
enum SourceValue: Equatable {
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
  case null

  /// The value bound as a statement parameter.
  var postgresValue: PostgresValue {
    switch self {
    case .integer(let value): .integer(value)
    case .real(let value): .text(String(value))
    case .text(let value): .text(value)
    case .blob(let value): .bytes(value)
    case .null: .null
    }
  }
}

extension PostgresValue {
  /// Whether it is text holding NUL, which PostgreSQL text cannot store.
  var holdsNUL: Bool {
    if case .text(let text) = self { return text.utf8.contains(0) }
    return false
  }
}

/// Reads a session's rows of one table (``HistoryTables``) from the scratch file, each value
/// checked against its column's type: a file whose value is not of its column's type (a
/// damaged or hand-edited file) is refused as damaged, never sent.
enum SourceRows {
  private static func forEachRow(
    _ table: HistoryTables.Table, session: Int64, from file: Connection,
    _ body: ([SourceValue]) throws -> Void
  ) throws {
    let statement: Statement
    switch table.key {
    case .session(let column):
      statement = try file.prepare(
        "SELECT \(table.columnList) FROM \(table.name) WHERE \(column) = ? ORDER BY \(column)")
      try statement.bind(session, at: 1)
    case .rowRange(let column):
      statement = try file.prepare(
        "SELECT \(table.columnList) FROM \(table.name) WHERE \(column) BETWEEN ? AND ? "
          + "ORDER BY \(column)")
      try statement.bind(session << 32, at: 1)
      try statement.bind((session << 32) | 0xFFFF_FFFF, at: 2)
    }
    while try statement.step() {
      var row: [SourceValue] = []
      row.reserveCapacity(table.columns.count)
      for (index, column) in table.columns.enumerated() {
        row.append(try value(of: column, at: Int32(index), in: statement, table: table.name))
      }
      try body(row)
    }
  }

  private static func value(
    of column: HistoryTables.Column, at index: Int32, in row: Statement, table: String
  ) throws -> SourceValue {
    if row.isNull(at: index) {
      guard column.isNullable else { throw damaged(table, column) }
      return .null
    }
    // A blob is read before anything else reads the column: another read may convert the
    // value (to text), after which SQLite no longer reports it as a blob.
    if column.type == .blob {
      guard let bytes = row.blob(at: index) else { throw damaged(table, column) }
      return .blob(bytes)
    }
    switch (column.type, row.value(at: index)) {
    case (.integer, .integer(let value)): return .integer(value)
    case (.real, .real(let value)): return .real(value)
    case (.real, .integer(let value)): return .real(Double(value))
    case (.text, .text(let value)): return .text(value)
    default: throw damaged(table, column)
    }
  }

  private static func damaged(_ table: String, _ column: HistoryTables.Column) -> StoreError {
    StoreError.corrupt(
      path: "the publish's pruned copy",
      detail: "\(table).\(column.name) holds a value that is not \(column.type)")
  }

  /// `table`'s rows of `session`, in key order, the columns named in `overrides` holding
  /// those values.
  static func rows(
    _ table: HistoryTables.Table, session: Int64, from file: Connection,
    overrides: [String: SourceValue] = [:]
  ) throws -> [[SourceValue]] {
    var rows: [[SourceValue]] = []
    try forEachRow(table, session: session, from: file) { row in
      rows.append(
        overrides.isEmpty
          ? row : zip(table.columns, row).map { overrides[$0.name] ?? $1 })
    }
    return rows
  }

  /// The session's flag changes in the file's order, numbered from 1, each with the rollout
  /// share it set: rows of ``HistoryTables/flagEvents``.
  static func flagEventRows(session: Int64, from file: Connection) throws -> [[SourceValue]] {
    let columns = HistoryTables.flagEventColumns
    let statement = try file.prepare(
      """
      SELECT \(columns.map { "e." + $0.name }.joined(separator: ", ")), r.basis_points
      FROM flag_events e LEFT JOIN flag_rollouts r ON r.flag_event_id = e.id
      WHERE e.session_id = ? ORDER BY e.id
      """)
    try statement.bind(session, at: 1)
    var rows: [[SourceValue]] = []
    let withShare = columns + [HistoryTables.Column("basis_points", .integer, nullable: true)]
    while try statement.step() {
      var row: [SourceValue] = [.integer(session), .integer(Int64(rows.count + 1))]
      for (index, column) in withShare.enumerated() {
        row.append(try value(of: column, at: Int32(index), in: statement, table: "flag_events"))
      }
      rows.append(row)
    }
    return rows
  }

  /// Why a session holding NUL in `table`'s text is not sent.
  static func nulReason(_ table: String) -> String {
    "its \(table) rows hold text with a NUL character, which PostgreSQL text cannot store; "
      + "the session is not published"
  }
}
