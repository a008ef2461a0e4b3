import SleeveStore

/// Copies sessions out of a history into a Sleeve file, so that every answer from the history
/// is the answer the file gives: the file then holds exactly what a file holding the same
/// sessions would hold after `sleeve prune --keep-last 0`.
///
/// Reading is in two steps, so that a large history costs what the question needs: the heads
/// of every session (its row, where it ran, whether and when it was summarized), on which
/// selection runs unchanged, then the bodies (controls, handlers, flags, summaries) of the
/// sessions selected. Session numbers are the history's own plus `offset` (0 for a file that
/// holds only the history's sessions; the local file's last number when the history's are
/// added beside a local file's), so they stay the same from one read to the next.
///
/// ```swift
/// let reader = try HistoryReader(location)
/// try reader.copyHeads(into: scratch, offset: 0, flagEvents: true)
/// try reader.copyBodies(of: selected, into: scratch, offset: 0, flagEvents: false)
/// ```
public final class HistoryReader {
  private let connection: PostgresConnection

  /// Connects to the history and checks its schema.
  ///
  /// - Throws: `HistoryError` (69 unreachable, 77 denied, 66 no such database, 65 a history
  ///   without this binary's schema).
  public init(_ location: HistoryLocation) throws(HistoryError) {
    connection = try PostgresConnection(location)
    try HistorySchema.requireCurrent(connection)
    // One snapshot for every read this reader makes: heads and the bodies read after them
    // agree, whatever publishers and prunes commit meanwhile (closing the connection ends it).
    try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
  }

  /// The largest session number the history has given (0 when it has none).
  public func lastSessionNumber() throws(HistoryError) -> Int64 {
    try connection.execute("SELECT coalesce(max(id), 0) FROM sessions").integer(0, 0) ?? 0
  }

  /// Copies every session's head into `file` (a writable, migrated Sleeve file), and every
  /// session's flag changes when `flagEvents` (a file's flag state reads them all), leaving
  /// out the sessions whose UUIDs (lowercased) are in `excluding`: those `file` holds already.
  ///
  /// - Parameter left: Called with each UUID of `excluding` the history holds.
  /// - Returns: The numbers the sessions have in `file`.
  /// - Throws: `HistoryError` for the server's failures and for values the history should
  ///   not hold (65), `SQLiteError` for the file's.
  @discardableResult
  public func copyHeads(
    into file: Connection, offset: Int64, flagEvents: Bool, excluding: Set<String> = [],
    left: (String) -> Void = { _ in }
  ) throws -> [Int64] {
    try file.transaction {
      var ids: [Int64] = []
      var skipped: Set<Int64> = []
      try copy(
        HistoryTables.sessions, sessions: nil, into: file, offset: offset,
        skip: { rows, row in
          let uuid = (rows.text(row, 1) ?? "").lowercased()
          guard !excluding.isEmpty, excluding.contains(uuid) else { return false }
          if let number = rows.integer(row, 0) { skipped.insert(number) }
          left(uuid)
          return true
        }
      ) { ids.append($0) }
      for table in HistoryTables.heads {
        try copy(table, sessions: nil, into: file, offset: offset, skipping: skipped) { _ in }
      }
      if flagEvents {
        try copyFlagEvents(sessions: nil, into: file, offset: offset, skipping: skipped)
      }
      return ids
    }
  }

  /// Copies the bodies of `sessions` (numbers in `file`, as ``copyHeads(into:offset:flagEvents:)``
  /// gave them) into `file`, and their flag changes when `flagEvents`.
  ///
  /// - Throws: What ``copyHeads(into:offset:flagEvents:)`` throws.
  public func copyBodies(
    of sessions: [Int64], into file: Connection, offset: Int64, flagEvents: Bool
  ) throws {
    let history = try sessions.map { (session: Int64) throws(HistoryError) -> Int64 in
      let (number, overflow) = session.subtractingReportingOverflow(offset)
      guard !overflow, number >= 1 else {
        throw HistoryError(.usage, "session \(session) is not one copied from the history")
      }
      return number
    }
    guard !history.isEmpty else { return }
    try file.transaction {
      for table in HistoryTables.bodies {
        try copy(table, sessions: history, into: file, offset: offset, skipping: []) { _ in }
      }
      if flagEvents {
        try copyFlagEvents(sessions: history, into: file, offset: offset, skipping: [])
      }
    }
  }

  /// `number` (the history's) as the file's: plus `offset`, within the file's session range.
  static func fileSession(_ number: Int64, offset: Int64) throws(HistoryError) -> Int64 {
    let (sum, overflow) = number.addingReportingOverflow(offset)
    guard !overflow, number >= 1, sum <= Int64(Int32.max) else {
      throw HistoryError(
        .schema,
        "history session \(number) cannot be numbered in the reading file (after its "
          + "\(offset) sessions, numbers end at 2,147,483,647)")
    }
    return sum
  }

  private func select(_ table: HistoryTables.Table, sessions: [Int64]?) throws(HistoryError)
    -> PostgresResult
  {
    let columns = table.columns.map { "t." + $0.name }.joined(separator: ", ")
    let key = table.key.column
    guard let sessions else {
      return try connection.execute(
        "SELECT \(columns) FROM \(table.name) t ORDER BY t.\(key)")
    }
    switch table.key {
    case .session:
      return try connection.execute(
        "SELECT \(columns) FROM \(table.name) t WHERE t.\(key) = ANY($1::bigint[]) "
          + "ORDER BY t.\(key)", [.integers(sessions)])
    case .rowRange:
      return try connection.execute(
        "SELECT \(columns) FROM \(HistoryTables.rowsOfSessions(table, parameter: 1)) "
          + "ORDER BY t.\(key)", [.integers(sessions)])
    }
  }

  /// Copies `table`'s rows of `sessions` (every session when `nil`) into `file`, leaving out
  /// the rows of the history sessions in `skipping`.
  private func copy(
    _ table: HistoryTables.Table, sessions: [Int64]?, into file: Connection, offset: Int64,
    skipping: Set<Int64>, each: (Int64) -> Void
  ) throws {
    let keyIndex = table.columns.firstIndex { $0.name == table.key.column } ?? 0
    let isRowRange = if case .rowRange = table.key { true } else { false }
    try copy(
      table, sessions: sessions, into: file, offset: offset,
      skip: { rows, row in
        guard !skipping.isEmpty, let key = rows.integer(row, keyIndex) else { return false }
        return skipping.contains(isRowRange ? key >> 32 : key)
      }, each: each)
  }

  /// Copies `table`'s rows of `sessions` (every session when `nil`) into `file`, but those
  /// `skip` names.
  private func copy(
    _ table: HistoryTables.Table, sessions: [Int64]?, into file: Connection, offset: Int64,
    skip: (PostgresResult, Int) -> Bool, each: (Int64) -> Void
  ) throws {
    let rows = try select(table, sessions: sessions)
    let placeholders = Array(repeating: "?", count: table.columns.count).joined(separator: ", ")
    let insert = try file.prepare(
      "INSERT INTO \(table.name) (\(table.columnList)) VALUES (\(placeholders))")
    for row in 0..<rows.count where !skip(rows, row) {
      insert.reset()
      for (index, column) in table.columns.enumerated() {
        let bound = try bind(
          column, of: rows, row: row, column: index, table: table.name,
          offset: offset, to: insert)
        if index == 0, table.name == HistoryTables.sessions.name, let bound { each(bound) }
      }
      try insert.run()
    }
  }

  /// Binds one value to parameter `column + 1`; returns the integer bound, if any.
  private func bind(
    _ declared: HistoryTables.Column, of rows: PostgresResult, row: Int, column: Int,
    table: String, offset: Int64, to insert: Statement
  ) throws -> Int64? {
    let parameter = Int32(column + 1)
    if rows.isNull(row, column) {
      guard declared.isNullable else { throw damaged(table, declared) }
      try insert.bindNull(at: parameter)
      return nil
    }
    switch declared.type {
    case .integer:
      guard var value = rows.integer(row, column) else { throw damaged(table, declared) }
      switch declared.role {
      case .value: break
      case .session: value = try Self.fileSession(value, offset: offset)
      case .rowID:
        value = HistoryTables.rebased(
          value, onto: try Self.fileSession(value >> 32, offset: offset))
      }
      try insert.bind(value, at: parameter)
      return value
    case .real:
      guard let value = rows.real(row, column) else { throw damaged(table, declared) }
      try insert.bind(value, at: parameter)
    case .text:
      try insert.bind(rows.text(row, column), at: parameter)
    case .blob:
      guard let bytes = rows.bytes(row, column) else { throw damaged(table, declared) }
      try insert.bind(blob: bytes, at: parameter)
    }
    return nil
  }

  private func damaged(_ table: String, _ column: HistoryTables.Column) -> HistoryError {
    HistoryError(
      .schema,
      "\(connection.location.redacted): \(table).\(column.name) holds a value that is not "
        + "\(column.type) (a damaged history)")
  }

  private func copyFlagEvents(
    sessions: [Int64]?, into file: Connection, offset: Int64, skipping: Set<Int64>
  ) throws {
    let columns = HistoryTables.flagEventColumns
    let list = (["session_id"] + columns.map(\.name) + ["basis_points"]).joined(separator: ", ")
    let rows =
      try sessions.map {
        try connection.execute(
          "SELECT \(list) FROM flag_events WHERE session_id = ANY($1::bigint[]) "
            + "ORDER BY session_id, position", [.integers($0)])
      }
      ?? connection.execute("SELECT \(list) FROM flag_events ORDER BY session_id, position")
    let insert = try file.prepare(
      "INSERT INTO flag_events (session_id, \(columns.map(\.name).joined(separator: ", "))) "
        + "VALUES (?\(String(repeating: ", ?", count: columns.count)))")
    let share = try file.prepare(
      "INSERT INTO flag_rollouts (flag_event_id, basis_points) VALUES (?, ?)")
    let sessionColumn = HistoryTables.Column("session_id", .integer, .session)
    for row in 0..<rows.count where !skipping.contains(rows.integer(row, 0) ?? 0) {
      insert.reset()
      _ = try bind(
        sessionColumn, of: rows, row: row, column: 0, table: "flag_events", offset: offset,
        to: insert)
      for (index, column) in columns.enumerated() {
        _ = try bind(
          column, of: rows, row: row, column: index + 1, table: "flag_events", offset: offset,
          to: insert)
      }
      try insert.run()
      if let basisPoints = rows.integer(row, columns.count + 1) {
        share.reset()
        try share.bind(file.lastInsertRowID, at: 1)
        try share.bind(basisPoints, at: 2)
        try share.run()
      }
    }
  }
}
