/// The one home of the checksum tables (`Migrations/0009_summary_checksums.sql`): what each
/// stored summary carries to prove it is the one that was written, and how it is computed.
///
/// A session's `rows_digest` covers its summary rows, its `checksum` its `session_summaries`
/// row with that digest (``SummaryTables`` computes and checks both); a block's `members`
/// covers its summarized sessions' checksums, its `checksum` the block's rows
/// (``SummaryRollups`` computes and checks both). Every writer of summaries stores them in the
/// transaction that writes the rows; every reader recomputes them and refuses a mismatch as
/// damage (exit 65 naming the session or block).
public enum SummaryChecksums {
  /// The migration that adds the tables.
  static let migration = "0009_summary_checksums"

  /// Whether the file keeps checksums (migration 0009 is applied). A file without them (an
  /// older file opened for reading) is read with what can be checked without them: each row
  /// against itself and the rows of a session against each other and `session_summaries`; its
  /// rollups are not read.
  public static func areKept(connection: Connection) throws -> Bool {
    let statement = try connection.prepare("SELECT 1 FROM schema_migrations WHERE id = ?")
    try statement.bind(migration, at: 1)
    return try statement.step()
  }

  /// The checksum of a `session_summaries` row whose `summarized_unix_ns`, `fires`, `outcomes`
  /// and `raw_pruned_unix_ns` are columns `first…first + 3` of `row`, over `rowsDigest`. No
  /// session id: `merge` copies a session under another id, checksums and all.
  static func sessionChecksum(columnsFrom first: Int32, of row: Statement, rowsDigest: Int64)
    -> Int64
  {
    var digest = SummaryDigest(domain: "session_summaries")
    digest.add(columns: first..<(first + 4), of: row)
    digest.add(integer: rowsDigest)
    return digest.stored
  }

  /// Stores session `session`'s checksums: `rowsDigest`, the digest of its summary rows as they
  /// are now (``SummaryTables`` computes it while it reads them), and the checksum of its
  /// `session_summaries` row with it. Nothing for a session that is not summarized.
  static func seal(session: Int64, rowsDigest: Int64, connection: Connection) throws {
    let row = try connection.prepare(
      """
      SELECT summarized_unix_ns, fires, outcomes, raw_pruned_unix_ns FROM session_summaries
      WHERE session_id = ?
      """)
    try row.bind(session, at: 1)
    guard try row.step() else { return }
    let checksum = sessionChecksum(columnsFrom: 0, of: row, rowsDigest: rowsDigest)
    let insert = try connection.prepare(
      """
      INSERT OR REPLACE INTO summary_checksums (session_id, rows_digest, checksum)
      VALUES (?, ?, ?)
      """)
    try insert.bind(session, at: 1)
    try insert.bind(rowsDigest, at: 2)
    try insert.bind(checksum, at: 3)
    try insert.run()
  }

  /// Deletes session `session`'s checksums (with its summaries).
  static func delete(session: Int64, connection: Connection) throws {
    let statement = try connection.prepare("DELETE FROM summary_checksums WHERE session_id = ?")
    try statement.bind(session, at: 1)
    try statement.run()
  }

  /// Computes the checksums of every summarized session that has none and whose rows pass the
  /// checks a file without checksums gets, then rebuilds every rollup (with its checksum). The
  /// migrator runs it in the transaction that applies 0009, so no file keeps checksums for some
  /// sessions and not for others except by damage; a session whose rows fail is left without
  /// one, and readers name it as damaged.
  static func sealUnsealed(connection: Connection) throws {
    let statement = try connection.prepare(
      """
      SELECT s.session_id FROM session_summaries s
      LEFT JOIN summary_checksums c ON c.session_id = s.session_id
      WHERE c.session_id IS NULL ORDER BY s.session_id
      """)
    var sessions: [Int64] = []
    while try statement.step() { sessions.append(statement.int64(at: 0)) }
    for session in sessions {
      do {
        let digest = try SummaryTables.verifiedDigest(
          session: session, checks: .registrations, connection: connection)
        try seal(session: session, rowsDigest: digest, connection: connection)
      } catch is SummaryError {
        continue
      }
    }
    let blocks = try connection.prepare("SELECT block FROM summary_blocks ORDER BY block")
    var ids: [Int64] = []
    while try blocks.step() { ids.append(blocks.int64(at: 0)) }
    for block in ids { try SummaryRollups.rebuild(block: block, connection: connection) }
  }

  /// The digest of block `block`'s members: each summarized session's id and checksum (NULL
  /// for one without), by id, leaving out `excluded`.
  static func members(of block: Int64, excluding excluded: Int64? = nil, connection: Connection)
    throws -> Int64
  {
    let range = SummaryRollups.sessions(of: block)
    let statement = try connection.prepare(
      """
      SELECT s.session_id, c.checksum FROM session_summaries s
      LEFT JOIN summary_checksums c ON c.session_id = s.session_id
      WHERE s.session_id BETWEEN ? AND ? ORDER BY s.session_id
      """)
    try statement.bind(range.lowerBound, at: 1)
    try statement.bind(range.upperBound, at: 2)
    var digest = SummaryDigest(domain: "members")
    while try statement.step() {
      guard statement.int64(at: 0) != excluded else { continue }
      digest.add(columns: 0..<2, of: statement)
    }
    return digest.stored
  }

  /// The checksum of block `block`'s `summary_blocks` row (its `sessions` and `session_id_sum`
  /// at columns `first` and `first + 1` of `row`), its members digest and its rows' digest.
  static func rollupChecksum(
    block: Int64, columnsFrom first: Int32, of row: Statement, members: Int64, rowsDigest: Int64
  ) -> Int64 {
    var digest = SummaryDigest(domain: "summary_blocks")
    digest.add(integer: block)
    digest.add(columns: first..<(first + 2), of: row)
    digest.add(integer: members)
    digest.add(integer: rowsDigest)
    return digest.stored
  }

  /// Stores block `block`'s checksums.
  static func sealRollup(block: Int64, members: Int64, checksum: Int64, connection: Connection)
    throws
  {
    let insert = try connection.prepare(
      "INSERT OR REPLACE INTO rollup_checksums (block, members, checksum) VALUES (?, ?, ?)")
    try insert.bind(block, at: 1)
    try insert.bind(members, at: 2)
    try insert.bind(checksum, at: 3)
    try insert.run()
  }
}
