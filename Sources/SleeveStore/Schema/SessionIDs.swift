/// How a new session's row id is chosen, for the recorder and for `merge` alike.
public enum SessionIDs {
  /// The id the next session row gets: one past the highest present (the id SQLite itself
  /// would give), or `nil` when that is past `RowID.sessions` (the file has no session ids
  /// left). Never traps, whatever ids the file holds.
  ///
  /// - Throws: `SQLiteError` when the file cannot be read.
  public static func next(in connection: Connection) throws -> Int64? {
    let statement = try connection.prepare("SELECT max(id) FROM main.sessions")
    _ = try statement.step()
    let highest = statement.optionalInt64(at: 0) ?? 0
    guard highest < RowID.sessions.upperBound else { return nil }
    return max(highest + 1, RowID.sessions.lowerBound)
  }
}
