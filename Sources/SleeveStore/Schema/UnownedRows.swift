/// Rows of the id-partitioned tables (controls, registrations, fires, outcomes) that belong to
/// no session of the file: the session part of their id (``RowID/session(of:)``) names no
/// session, or, for controls and registrations, their `session_id` names another session than
/// their id does. Sleeve's writers never make such rows; an older writer or a foreign tool can.
///
/// Every answer reads a session's rows by its id range, so such rows are in no answer: a gate
/// that decided without them would decide on less than the file holds. `sleeve check` and
/// `sleeve report` refuse the file (65, naming the table); `sleeve sessions` counts them.
///
/// Counting costs a few primary-key range probes per table (one per gap between runs of
/// consecutive session ids), not a scan of fires or outcomes.
///
/// ```swift
/// let unowned = try UnownedRows.count(on: connection)
/// if !unowned.isEmpty { print(unowned.description) }  // "3 rows of fires, 6 of outcomes"
/// ```
public struct UnownedRows: Equatable, Sendable, CustomStringConvertible {
  /// The rows of one table that belong to no session.
  public struct Count: Equatable, Sendable {
    /// The table.
    public let table: String
    /// How many of its rows belong to no session (at least 1).
    public let rows: Int64
  }

  /// The tables holding such rows, in ``tables`` order; empty when every row has its session.
  public let counts: [Count]

  /// The id-partitioned tables, in the order their counts are given.
  public static let tables = ["controls", "registrations", "fires", "outcomes"]
  /// The tables that also name their session in a `session_id` column.
  static let tablesWithSessionColumn: Set<String> = ["controls", "registrations"]

  /// Whether every row belongs to its session.
  public var isEmpty: Bool { counts.isEmpty }

  /// `3 rows of fires, 6 of outcomes` (empty when there are none).
  public var description: String {
    counts.enumerated().map { index, count in
      index == 0
        ? "\(count.rows) row\(count.rows == 1 ? "" : "s") of \(count.table)"
        : "\(count.rows) of \(count.table)"
    }.joined(separator: ", ")
  }

  /// Counts the rows that belong to no session, on `connection` (inside the caller's read
  /// transaction, when it has one, so the count and the answer see one snapshot).
  /// - Throws: `SQLiteError` when a table cannot be read.
  public static func count(on connection: Connection) throws -> UnownedRows {
    var sessions: [Int64] = []
    let listing = try connection.prepare("SELECT id FROM sessions ORDER BY id")
    while try listing.step() { sessions.append(listing.int64(at: 0)) }
    let gaps = unownedIDRanges(sessions: sessions)
    var counts: [Count] = []
    for table in tables {
      var rows: Int64 = 0
      let inGap = try connection.prepare("SELECT count(*) FROM \(table) WHERE id BETWEEN ? AND ?")
      for gap in gaps {
        inGap.reset()
        try inGap.bind(gap.lowerBound, at: 1)
        try inGap.bind(gap.upperBound, at: 2)
        if try inGap.step() { rows += inGap.int64(at: 0) }
      }
      if tablesWithSessionColumn.contains(table) {
        // Inside an owned range, but naming another session in its own column.
        let mismatched = try connection.scalarInt(
          "SELECT count(*) FROM \(table) WHERE session_id IS NOT (id >> \(RowID.numberBits)) "
            + "AND (id >> \(RowID.numberBits)) IN (SELECT id FROM sessions)")
        rows += mismatched ?? 0
      }
      if rows > 0 { counts.append(Count(table: table, rows: rows)) }
    }
    return UnownedRows(counts: counts)
  }

  /// The ids no session owns, given the file's session ids in ascending order: everything
  /// below the first run of consecutive sessions, between runs, and above the last, as
  /// closed ranges (no bound is computed past `Int64.min` or `Int64.max`).
  static func unownedIDRanges(sessions: [Int64]) -> [ClosedRange<Int64>] {
    // Consecutive sessions own one contiguous id range: merge them into runs.
    var owned: [ClosedRange<Int64>] = []
    for session in sessions {
      guard let ids = RowID.range(of: session) else { continue }  // owns no ids
      if let last = owned.last, last.upperBound < Int64.max, last.upperBound + 1 == ids.lowerBound {
        owned[owned.count - 1] = last.lowerBound...ids.upperBound
      } else {
        owned.append(ids)  // ascending and unique (the primary key): after the last run
      }
    }
    var gaps: [ClosedRange<Int64>] = []
    var next = Int64.min  // the first id not yet accounted for
    var exhausted = false
    for ids in owned {
      if next < ids.lowerBound { gaps.append(next...(ids.lowerBound - 1)) }
      if ids.upperBound == Int64.max {
        exhausted = true
        break
      }
      next = ids.upperBound + 1
    }
    if !exhausted { gaps.append(next...Int64.max) }
    return gaps
  }
}
