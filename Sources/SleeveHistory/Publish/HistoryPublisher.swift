import SleeveStore

/// Publishes ended sessions of a Sleeve file into a history: what the file would hold of them
/// after `sleeve prune --keep-last 0` (their rows, where they ran, handlers, flags and
/// summaries; never raw fires and outcomes).
///
/// The file is never written: its ended sessions are merged into a scratch file (0600, in a
/// private directory), summarized and pruned there, and read from it. Each session is then
/// sent in one transaction keyed by its UUID: it is wholly in the history or absent, a session
/// the history has already is skipped (publishing again sends nothing new; a publish cut short
/// is finished by running it again), and one the history holds with other summaries is
/// refused, never written over. Concurrent publishers only insert: two of the same UUID meet
/// at its unique index, and the second does nothing.
///
/// ```swift
/// let publisher = try HistoryPublisher(HistoryLocation("postgresql://ci@db/sleeve"))
/// let report = try publisher.publish(file: "sleeve.sqlite", uuids: selected)
/// ```
public final class HistoryPublisher {
  /// What a publish did.
  public struct Report: Equatable, Sendable {
    /// Sessions sent now, by UUID, in the order given.
    public var published: [String] = []
    /// Sessions the history had already, unchanged.
    public var alreadyPresent: [String] = []
    /// Sessions not sent, each with why (one line): held by the history with other summaries,
    /// or holding text PostgreSQL cannot store.
    public var refused: [Refusal] = []
    /// Sessions left out because they have not ended.
    public var notEnded: [String] = []
  }

  /// A session not sent, and why.
  public struct Refusal: Equatable, Sendable {
    /// Its UUID.
    public let uuid: String
    /// Why, one line.
    public let reason: String
  }

  private let connection: PostgresConnection
  /// The digests the history held, when this publish began, for the sessions it publishes.
  private var heldDigests: [String: Int64] = [:]
  /// How many times a session is tried again after a serialization failure, deadlock or
  /// lock timeout (75) before the publish gives up with that error.
  public static let retries = 4

  /// Connects to the history and checks its schema.
  ///
  /// - Throws: `HistoryError` (69 unreachable, 77 denied, 66 no such database, 65 a history
  ///   without this binary's schema).
  public init(_ location: HistoryLocation) throws(HistoryError) {
    connection = try PostgresConnection(location)
    try HistorySchema.requireCurrent(connection)
  }

  /// Publishes the sessions of `file` whose UUIDs are `uuids` (in that order).
  ///
  /// - Parameters:
  ///   - unixNanoseconds: The time recorded as the publish time (and as the summary time of a
  ///     session summarized for it).
  ///   - progress: Called after each session with how many are done.
  /// - Throws: `HistoryError` for the server's failures (what was published before stays),
  ///   `StoreError` and `SQLiteError` for the file's.
  public func publish(
    file: String, uuids: [String], unixNanoseconds: Int64 = WallClock.unixNanoseconds(),
    progress: (Int) -> Void = { _ in }
  ) throws -> Report {
    // Ended sessions with sealed summaries are read from the file itself (read-only), as a
    // pruned copy would hold them (``SummaryTables/prunedSeal``); only ended sessions without
    // summaries (a file from before them) go through a scratch copy, summarized and pruned.
    let source = try SleeveDatabase.openForReading(path: file)
    let (ended, spellings) = try Self.sessionsByUUID(source)
    let summarized = try SummaryTables.states(connection: source)
    let wanted = uuids.map { $0.lowercased() }
    let unsummarized = wanted.compactMap { ended[$0] }.filter { summarized[$0] == nil }
    var copy: (scratch: ScratchDatabase, connection: Connection, ids: [String: Int64])?
    defer { copy?.scratch.remove() }
    if !unsummarized.isEmpty {
      let scratch = try ScratchDatabase(purpose: "publish")
      let pruned = try SleeveDatabase.openForWriting(path: scratch.path)
      _ = try SessionMerger(target: pruned).merge(path: file, includeUnterminated: false)
      let ids = try Self.sessionsByUUID(pruned).ids
      let plan = try RawRowPruner.plan(
        sessions: Array(ids.values), policy: .keepLast(0), connection: pruned)
      _ = try RawRowPruner.execute(
        plan, connection: pruned, reclaimSpace: false, unixNanoseconds: unixNanoseconds)
      copy = (scratch, pruned, ids)
    }
    heldDigests = try heldDigests(of: wanted.compactMap { spellings[$0] })
    var report = Report()
    for (index, uuid) in uuids.enumerated() {
      defer { progress(index + 1) }
      let key = uuid.lowercased()
      let from: (session: Int64, file: Connection)
      if let session = ended[key], summarized[session] != nil {
        from = (session, source)
      } else if let copy, let session = copy.ids[key] {
        from = (session, copy.connection)
      } else {
        report.notEnded.append(uuid)
        continue
      }
      switch try publishRetrying(session: from.session, from: from.file, now: unixNanoseconds) {
      case .published: report.published.append(uuid)
      case .alreadyPresent: report.alreadyPresent.append(uuid)
      case .refused(let reason): report.refused.append(Refusal(uuid: uuid, reason: reason))
      }
    }
    return report
  }

  /// The ended sessions of a file: their numbers, and their UUIDs as the file spells them, by
  /// lowercased UUID.
  private static func sessionsByUUID(_ connection: Connection) throws
    -> (ids: [String: Int64], spellings: [String: String])
  {
    let rows = try connection.prepare(
      "SELECT id, uuid FROM sessions WHERE status = \(RecordCodes.SessionStatus.ended.sqlLiteral)")
    var ids: [String: Int64] = [:]
    var spellings: [String: String] = [:]
    while try rows.step() {
      let uuid = rows.text(at: 1) ?? ""
      ids[uuid.lowercased()] = rows.int64(at: 0)
      spellings[uuid.lowercased()] = uuid
    }
    return (ids, spellings)
  }

  private enum Outcome {
    case published, alreadyPresent
    case refused(String)
  }

  private func publishRetrying(session: Int64, from file: Connection, now: Int64) throws
    -> Outcome
  {
    var attempt = 0
    while true {
      do {
        return try publishOnce(session: session, from: file, now: now)
      } catch let error as HistoryError where error.kind == .busy && attempt < Self.retries {
        attempt += 1
        let milliseconds = 50 << attempt
        usleep(useconds_t(milliseconds * 1000))
      }
    }
  }

  private func publishOnce(session: Int64, from file: Connection, now: Int64) throws -> Outcome {
    let sessionRow = try SourceRows.rows(HistoryTables.sessions, session: session, from: file)
    guard let row = sessionRow.first else { return .refused("the session left the file") }
    guard
      let seal = try SummaryTables.prunedSeal(
        session: session, unixNanoseconds: now, connection: file)
    else { return .refused("the session has no summaries") }
    let uuid = row[1]
    let values = Array(row.dropFirst()).map(\.postgresValue)
    guard !values.contains(where: \.holdsNUL) else {
      return .refused(SourceRows.nulReason("sessions"))
    }
    return try send(
      session: session, from: file, now: now, values: values, uuid: uuid, seal: seal)
  }

  /// Sends the session in one statement (``SessionInsert``): one round trip, one transaction.
  private func send(
    session: Int64, from file: Connection, now: Int64, values: [PostgresValue],
    uuid: SourceValue, seal: SummaryTables.PrunedSeal
  ) throws -> Outcome {
    let contentDigest = seal.rowsDigest
    // Looked up first (for the whole publish at once): an insert that meets the unique index
    // still spends a session number.
    if case .text(let text) = uuid, let digest = heldDigests[text] {
      return Self.outcome(heldDigest: digest, contentDigest: contentDigest)
    }
    let insert: SessionInsert
    do {
      insert = try SessionInsert(
        session: session, from: file, sessionValues: values,
        extra: [("content_digest", .integer(contentDigest)), ("published_unix_ns", .integer(now))],
        // The summary state as a pruned file holds it.
        overrides: [
          "session_summaries": ["raw_pruned_unix_ns": .integer(seal.rawPrunedUnixNanoseconds)],
          "summary_checksums": ["checksum": .integer(seal.checksum)],
        ])
    } catch let refusal as SessionInsert.Refusal {
      return .refused(refusal.reason)
    }
    let inserted = try connection.execute(insert.sql, insert.parameters)
    guard inserted.count == 1 else {
      // A concurrent publisher of the same UUID committed first.
      return try held(uuid: uuid, contentDigest: contentDigest)
        ?? .refused("the history's copy of this session could not be read back")
    }
    return .published
  }

  /// The digests the history holds for `uuids` (as the file spells them), in one query.
  private func heldDigests(of uuids: [String]) throws(HistoryError) -> [String: Int64] {
    var array = PostgresArray(of: .text)
    for uuid in uuids { try? array.append(uuid) }  // a UUID holding NUL matches nothing
    let rows = try connection.execute(
      "SELECT uuid, content_digest FROM sessions WHERE uuid = ANY($1::text[])", [array.literal])
    var digests: [String: Int64] = [:]
    for row in 0..<rows.count {
      if let uuid = rows.text(row, 0), let digest = rows.integer(row, 1) { digests[uuid] = digest }
    }
    return digests
  }

  private static func outcome(heldDigest: Int64, contentDigest: Int64) -> Outcome {
    heldDigest == contentDigest
      ? .alreadyPresent
      : .refused(
        "the history holds this session with other summaries (it changed after it was "
          + "published); it is not written over")
  }

  /// What publishing `uuid` amounts to when the history holds it already: nothing to send
  /// (the same summaries), or a refusal (other summaries); `nil` when it does not hold it.
  private func held(uuid: SourceValue, contentDigest: Int64) throws(HistoryError) -> Outcome? {
    let held = try connection.execute(
      "SELECT content_digest FROM sessions WHERE uuid = $1", [uuid.postgresValue])
    guard held.count == 1, let digest = held.integer(0, 0) else { return nil }
    return Self.outcome(heldDigest: digest, contentDigest: contentDigest)
  }

}

#if canImport(Glibc)
  import Glibc
#endif
