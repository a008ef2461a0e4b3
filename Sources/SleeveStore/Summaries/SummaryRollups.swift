/// The one home of the rollup tables (`Migrations/0006_summary_rollups.sql`): each block of 64
/// sessions (by id) keeps the exact merge of its summarized sessions' summaries per handler
/// identity and variant, so a query over a thousand sessions reads about sixteen rows per
/// handler instead of a thousand.
///
/// Every writer of summaries calls ``update(afterSummarizing:connection:)`` (inside
/// ``SummaryTables/summarize(session:connection:unixNanoseconds:)``, and `merge` after copying a
/// session's summaries), which adds the session to its block when the block's row still
/// describes the block's other summarized sessions, and rebuilds the block from their stored
/// summaries otherwise. A reader trusts a block only while its row matches the summarized
/// sessions the file holds (``BlockState``).
public enum SummaryRollups {
  /// Sessions per block: 2^6.
  public static let blockShift: Int64 = 6

  /// The block of session `session`.
  public static func block(of session: Int64) -> Int64 { session >> blockShift }

  /// The session ids block `block` can hold.
  public static func sessions(of block: Int64) -> ClosedRange<Int64> {
    (block << blockShift)...((block << blockShift) | ((1 << blockShift) - 1))
  }

  /// What a block's row says it holds: how many summarized sessions, and the sum of their ids.
  public struct BlockState: Equatable, Sendable {
    /// Summarized sessions merged into the block's rollup.
    public let sessions: Int64
    /// The sum of their ids (wrapping).
    public let sessionIDSum: Int64

    /// The state of a block holding `ids`.
    public init<IDs: Sequence<Int64>>(holding ids: IDs) {
      var count: Int64 = 0
      var sum: Int64 = 0
      for id in ids {
        count += 1
        sum = sum &+ id
      }
      sessions = count
      sessionIDSum = sum
    }

    init(sessions: Int64, sessionIDSum: Int64) {
      self.sessions = sessions
      self.sessionIDSum = sessionIDSum
    }
  }

  /// What queries route a registration by: its control's name, handler, identifier, site and
  /// gating flag; ``unknown`` for outcomes whose registration row is missing.
  public struct Identity: Hashable, Sendable {
    /// The control's name; `nil` when its row is missing.
    public let control: String?
    /// The handler as stored (`""` when missing).
    public let handler: String
    /// Its `id:`, when it has one.
    public let identifier: String?
    /// Its registration site.
    public let site: String?
    /// The gating flag's key.
    public let flag: String?
    /// Whether this stands for outcomes of a registration whose row is missing.
    public let isUnknown: Bool

    /// The identity of a registration.
    public init(
      control: String?, handler: String, identifier: String?, site: String?, flag: String?
    ) {
      self.control = control
      self.handler = handler
      self.identifier = identifier
      self.site = site
      self.flag = flag
      isUnknown = false
    }

    private init(unknown: Void) {
      (control, handler, identifier, site, flag, isUnknown) = (nil, "", nil, nil, nil, true)
    }

    /// Outcomes whose registration row is missing.
    public static let unknown = Identity(unknown: ())

    /// The stored key: each field as its UTF-8 length and bytes (`-` for none), so two
    /// identities have equal keys only when they are equal.
    public var key: String {
      guard !isUnknown else { return "?" }
      return [control, handler, identifier, site, flag].map { field in
        field.map { "\($0.utf8.count):\($0)" } ?? "-"
      }.joined(separator: "|")
    }
  }

  /// One rollup row: an identity and variant, with the counts and histogram merged over the
  /// block's summarized sessions (no failure kinds: comparisons read sessions one by one).
  public struct Row: Sendable {
    /// Whose outcomes.
    public let identity: Identity
    /// The stored variant code, -1 when not gated.
    public let variant: Int8
    /// The merged counts and durations.
    public let summary: OutcomeSummary
  }

  /// Every block's row, by block.
  public static func blockStates(connection: Connection) throws -> [Int64: BlockState] {
    let statement = try connection.prepare(
      "SELECT block, sessions, session_id_sum FROM summary_blocks")
    var states: [Int64: BlockState] = [:]
    while try statement.step() {
      states[statement.int64(at: 0)] = BlockState(
        sessions: statement.int64(at: 1), sessionIDSum: statement.int64(at: 2))
    }
    return states
  }

  /// Brings the rollup of `session`'s block up to date after `session` was summarized: adds
  /// it when the block's row describes exactly the block's other summarized sessions, and
  /// rebuilds the block from its sessions' stored summaries otherwise (after a rebuild of the
  /// session, a replaced or deleted session, or a file from before 0006). Run it in the
  /// transaction that wrote the session's summaries.
  public static func update(afterSummarizing session: Int64, connection: Connection) throws {
    let block = block(of: session)
    let summarized = try summarizedSessions(in: block, connection: connection)
    let others = BlockState(holding: summarized.filter { $0 != session })
    let stored = try blockStates(connection: connection)[block]
    guard stored == others || (stored == nil && others.sessions == 0) else {
      return try rebuild(block: block, connection: connection)
    }
    var rows: [RowKey: OutcomeSummary] = [:]
    do {
      if stored != nil {
        // The block as it was rolled up, checked: a damaged or stale rollup is rebuilt.
        let members = try SummaryChecksums.members(
          of: block, excluding: session, connection: connection)
        guard let current = try verified(block: block, members: members, connection: connection)
        else { return try rebuild(block: block, connection: connection) }
        for (key, summary) in current { rows[key] = summary }
      }
      try fold(session: session, into: &rows, connection: connection)
    } catch is SummaryError {
      return try rebuild(block: block, connection: connection)
    }
    try write(rows, block: block, state: BlockState(holding: summarized), connection: connection)
  }

  /// Drops the rollup of `session`'s block, for a writer that deletes the session's summaries:
  /// the next update of the block rebuilds it, and readers read the block's sessions one by one
  /// until then.
  public static func invalidate(blockOf session: Int64, connection: Connection) throws {
    for sql in [
      "DELETE FROM summary_rollups WHERE block = ?", "DELETE FROM summary_blocks WHERE block = ?",
      "DELETE FROM rollup_checksums WHERE block = ?",
    ] {
      let statement = try connection.prepare(sql)
      try statement.bind(block(of: session), at: 1)
      try statement.run()
    }
  }

  /// Rebuilds block `block` from the stored summaries of its summarized sessions.
  public static func rebuild(block: Int64, connection: Connection) throws {
    let summarized = try summarizedSessions(in: block, connection: connection)
    var rows: [RowKey: OutcomeSummary] = [:]
    do {
      for session in summarized { try fold(session: session, into: &rows, connection: connection) }
    } catch is SummaryError {
      // A damaged summary in the block: no rollup, so readers read its sessions one by one
      // and name the damaged one; the writer that called this goes on.
      return try invalidate(blockOf: block << blockShift, connection: connection)
    }
    try write(rows, block: block, state: BlockState(holding: summarized), connection: connection)
  }

  /// The rollup rows of block `block`, in the order of their stored keys, checked against the
  /// block's checksum; `nil` when it has no rollup, when the file keeps no checksums (a file
  /// from before 0009: its sessions are read one by one, each checked), or when a member
  /// session's summaries changed since it was rolled up (they are read one by one too).
  ///
  /// - Throws: ``SummaryError/damagedRollup(block:detail:)`` for a row whose blob does not
  ///   decode or whose counts do not add up, two rows of one identity and variant, or rows
  ///   (or the block's row) that do not match the block's checksum or a block without one.
  public static func rows(of block: Int64, connection: Connection) throws -> [Row]? {
    guard try SummaryChecksums.areKept(connection: connection) else { return nil }
    let members = try SummaryChecksums.members(of: block, connection: connection)
    return try verified(block: block, members: members, connection: connection)?.map {
      key, summary in Row(identity: key.identity, variant: key.variant, summary: summary)
    }
  }

  /// Block `block`'s rows, checked against its checksum; `nil` when it has no `summary_blocks`
  /// row or its members were not `members` when it was rolled up.
  private static func verified(block: Int64, members: Int64, connection: Connection) throws
    -> [(RowKey, OutcomeSummary)]?
  {
    let mark = try connection.prepare(
      """
      SELECT b.sessions, b.session_id_sum, c.members, c.checksum FROM summary_blocks b
      LEFT JOIN rollup_checksums c ON c.block = b.block WHERE b.block = ?
      """)
    try mark.bind(block, at: 1)
    guard try mark.step() else { return nil }
    guard case .integer(let storedMembers) = mark.value(at: 2),
      case .integer(let stored) = mark.value(at: 3)
    else { throw SummaryError.damagedRollup(block: block, detail: "it has no checksum") }
    let (rows, digest) = try read(block: block, connection: connection)
    guard
      SummaryChecksums.rollupChecksum(
        block: block, columnsFrom: 0, of: mark, members: storedMembers, rowsDigest: digest)
        == stored
    else {
      throw SummaryError.damagedRollup(
        block: block, detail: "its rows do not match their checksum")
    }
    return storedMembers == members ? rows : nil
  }

  struct RowKey: Hashable {
    let identity: Identity
    let variant: Int8
  }

  private static func summarizedSessions(in block: Int64, connection: Connection) throws
    -> [Int64]
  {
    let range = sessions(of: block)
    let statement = try connection.prepare(
      "SELECT session_id FROM session_summaries WHERE session_id BETWEEN ? AND ?")
    try statement.bind(range.lowerBound, at: 1)
    try statement.bind(range.upperBound, at: 2)
    var ids: [Int64] = []
    while try statement.step() { ids.append(statement.int64(at: 0)) }
    return ids
  }

  /// Adds `session`'s stored summaries to `rows`, each under its registration's identity.
  private static func fold(
    session: Int64, into rows: inout [RowKey: OutcomeSummary], connection: Connection
  ) throws {
    var identities: [Int64: Identity] = [:]
    if let ids = RowID.range(of: session) {
      let statement = try connection.prepare(
        """
        SELECT r.id, c.name, r.handler, r.identifier, r.site, r.flag_key FROM registrations r
        LEFT JOIN controls c ON c.id = r.control_id WHERE r.id BETWEEN ? AND ?
        """)
      try statement.bind(ids.lowerBound, at: 1)
      try statement.bind(ids.upperBound, at: 2)
      while try statement.step() {
        identities[statement.int64(at: 0)] = Identity(
          control: statement.text(at: 1), handler: statement.text(at: 2) ?? "",
          identifier: statement.text(at: 3), site: statement.text(at: 4),
          flag: statement.text(at: 5))
      }
    }
    for (key, summary) in try SummaryTables.read(session: session, connection: connection) {
      var counted = summary
      counted.failures = [:]
      let rowKey = RowKey(identity: identities[key.registration] ?? .unknown, variant: key.variant)
      if let known = rows[rowKey] {
        guard let merged = known.merged(with: counted) else {
          throw SummaryError.damaged(
            session: session,
            detail: "the summary of registration \(key.registration) has other histogram limits")
        }
        rows[rowKey] = merged
      } else {
        rows[rowKey] = counted
      }
    }
  }

  /// Block `block`'s rows, each checked against itself, with the digest of the rows (every
  /// column, in key order).
  private static func read(block: Int64, connection: Connection) throws
    -> (rows: [(RowKey, OutcomeSummary)], digest: Int64)
  {
    let statement = try connection.prepare(
      """
      SELECT control, handler, identifier, site, flag_key, variant, ok, failed, owner_released,
        skipped, cancelled, recursion_limit, histogram, identity
      FROM summary_rollups WHERE block = ? ORDER BY identity, variant
      """)
    try statement.bind(block, at: 1)
    var rows: [(RowKey, OutcomeSummary)] = []
    var keys: Set<RowKey> = []
    var digest = SummaryDigest(domain: "summary_rollups")
    while try statement.step() {
      digest.add(columns: 0..<14, of: statement)
      func damaged(_ detail: String) -> SummaryError {
        .damagedRollup(block: block, detail: detail)
      }
      let identity =
        statement.text(at: 13) == "?"
        ? Identity.unknown
        : Identity(
          control: statement.text(at: 0), handler: statement.text(at: 1) ?? "",
          identifier: statement.text(at: 2), site: statement.text(at: 3),
          flag: statement.text(at: 4))
      do {
        let (variant, summary) = try SummaryTables.summary(
          in: statement, variantAt: 5, countsFrom: 6, histogramAt: 12)
        let key = RowKey(identity: identity, variant: variant)
        guard keys.insert(key).inserted else {
          throw damaged("two rows of one identity and variant")
        }
        rows.append((key, summary))
      } catch let error as SummaryTables.RowDamage {
        throw damaged(error.reason)
      }
    }
    return (rows, digest.stored)
  }

  private static func write(
    _ rows: [RowKey: OutcomeSummary], block: Int64, state: BlockState, connection: Connection
  ) throws {
    try invalidate(blockOf: block << blockShift, connection: connection)
    let insert = try connection.prepare(
      """
      INSERT INTO summary_rollups (block, identity, control, handler, identifier, site, flag_key,
        variant, ok, failed, owner_released, skipped, cancelled, recursion_limit, histogram)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    for (key, summary) in rows {
      insert.reset()
      let identity = key.identity
      try insert.bind(block, at: 1)
      try insert.bind(identity.key, at: 2)
      try insert.bind(identity.control, at: 3)
      try insert.bind(identity.handler, at: 4)
      try insert.bind(identity.identifier, at: 5)
      try insert.bind(identity.site, at: 6)
      try insert.bind(identity.flag, at: 7)
      try insert.bind(Int64(key.variant), at: 8)
      for (offset, count) in summary.statusCounts.enumerated() {
        try insert.bind(Int64(clamping: count), at: Int32(9 + offset))
      }
      try insert.bind(blob: HistogramCoding.encode(summary.durations), at: 15)
      try insert.run()
    }
    let mark = try connection.prepare(
      "INSERT INTO summary_blocks (block, sessions, session_id_sum) VALUES (?, ?, ?)")
    try mark.bind(block, at: 1)
    try mark.bind(state.sessions, at: 2)
    try mark.bind(state.sessionIDSum, at: 3)
    try mark.run()
    // The checksum of what was just written, read back as readers read it.
    let members = try SummaryChecksums.members(of: block, connection: connection)
    let written = try connection.prepare(
      "SELECT sessions, session_id_sum FROM summary_blocks WHERE block = ?")
    try written.bind(block, at: 1)
    _ = try written.step()
    let checksum = SummaryChecksums.rollupChecksum(
      block: block, columnsFrom: 0, of: written, members: members,
      rowsDigest: try read(block: block, connection: connection).digest)
    try SummaryChecksums.sealRollup(
      block: block, members: members, checksum: checksum, connection: connection)
  }
}
