#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How much disk a database takes and how many outcomes it records: the figures `sleeve prune`
/// reports before and after.
public struct DatabaseFootprint: Equatable, Sendable {
  /// The bytes of the database file and its `-wal` file.
  public let bytes: Int64
  /// The outcomes the file records: raw outcome rows, plus the outcomes of sessions whose raw
  /// rows were pruned (as their summaries counted them).
  public let outcomes: Int64

  /// Bytes per recorded outcome; `nil` for a file that records none.
  public var bytesPerOutcome: Double? {
    outcomes > 0 ? Double(bytes) / Double(outcomes) : nil
  }

  /// The footprint of the file `connection` has open (read through it, so it counts what the
  /// connection sees).
  ///
  /// - Throws: `SQLiteError` when the count fails.
  public static func measure(_ connection: Connection) throws -> DatabaseFootprint {
    let raw = try connection.scalarInt("SELECT count(*) FROM outcomes") ?? 0
    let pruned =
      try connection.scalarInt(
        "SELECT total(outcomes) FROM session_summaries WHERE raw_pruned_unix_ns IS NOT NULL")
      ?? 0
    let (outcomes, overflow) = raw.addingReportingOverflow(pruned)
    return DatabaseFootprint(
      bytes: fileBytes(connection.path), outcomes: overflow ? .max : outcomes)
  }

  /// The bytes of `path` and `path-wal` (a missing file counts 0).
  public static func fileBytes(_ path: String) -> Int64 {
    var total: Int64 = 0
    for name in [path, path + "-wal"] {
      var status = stat()
      if stat(name, &status) == 0 {
        total =
          total.addingReportingOverflow(Int64(status.st_size)).overflow
          ? .max : total + Int64(status.st_size)
      }
    }
    return total
  }
}
