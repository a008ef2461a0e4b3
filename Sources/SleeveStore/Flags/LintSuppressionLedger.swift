/// The lint findings a team has suppressed (`lint_suppressions`,
/// `Migrations/0004_interactions.sql`): `sleeve lint` lists a finding a suppression covers
/// apart and never fails on it. The one home of the table's reads and writes;
/// `sleeve lint suppress|unsuppress|suppressions` and the lint analysis go through it.
///
/// A suppression names a check by its stable id (`handler-accumulation`) and a site: a
/// registration site as recorded (`Checkout.swift:42`) or, for a control's own finding, the
/// control's name. There is at most one entry per (check, site): adding again updates its
/// reason, actor and time. A file from before migration 0004 has no suppressions: a reader
/// sees the table empty (`SchemaCheck` gives readers the missing tables as empty temporary
/// ones), and the first write upgrades the file, as every writer does.
///
/// ```swift
/// let ledger = LintSuppressionLedger(connection: try SleeveDatabase.openForWriting(path: path))
/// try ledger.add(LintSuppressionLedger.Entry(
///   check: "silent-replacement", site: "Checkout.swift:42", reason: "by design, #31",
///   actor: "oncall"))
/// ```
public struct LintSuppressionLedger {
  /// One suppressed (check, site).
  public struct Entry: Equatable, Sendable {
    /// The check's stable id, e.g. `handler-accumulation`.
    public let check: String
    /// The registration site as recorded (`Checkout.swift:42`), or a control's name.
    public let site: String
    /// Why.
    public let reason: String
    /// Who.
    public let actor: String?
    /// When it was added (or last updated), Unix nanoseconds.
    public let addedUnixNanoseconds: Int64

    /// An entry added now (or at `addedUnixNanoseconds`).
    public init(
      check: String, site: String, reason: String, actor: String?,
      addedUnixNanoseconds: Int64 = WallClock.unixNanoseconds()
    ) {
      self.check = check
      self.site = site
      self.reason = reason
      self.actor = actor
      self.addedUnixNanoseconds = addedUnixNanoseconds
    }
  }

  let connection: Connection

  /// A ledger over an open database (a writer's for ``add(_:)`` and ``remove(check:site:)``;
  /// a reader's is enough for ``entries()`` and ``knows(site:)``).
  public init(connection: Connection) {
    self.connection = connection
  }

  /// Whether any session recorded a registration at `site` or a control named `site` (capped
  /// as ``add(_:)`` caps it): what a suppression at `site` can cover.
  public func knows(site: String) throws -> Bool {
    let statement = try connection.prepare(
      """
      SELECT EXISTS (SELECT 1 FROM registrations WHERE site = ?1)
        OR EXISTS (SELECT 1 FROM controls WHERE name = ?1)
      """)
    try statement.bind(RecordedText.capped(site, to: .name), at: 1)
    _ = try statement.step()
    return statement.int64(at: 0) != 0
  }

  /// Suppresses `entry.check` at `entry.site`, its texts capped as every recorded text is
  /// (`RecordedText`: check id, site and actor 1,024 bytes, reason 4,096), so a site given
  /// here equals the same site as the recorder stored it. An entry already there for the
  /// same (check, site) is updated, never duplicated.
  ///
  /// - Returns: `true` when the entry is new, `false` when an existing one was updated.
  @discardableResult
  public func add(_ entry: Entry) throws -> Bool {
    let check = RecordedText.capped(entry.check, to: .name)
    let site = RecordedText.capped(entry.site, to: .name)
    let reason = RecordedText.capped(entry.reason, to: .message)
    let actor = entry.actor.map { RecordedText.capped($0, to: .name) }
    return try connection.transaction {
      let update = try connection.prepare(
        """
        UPDATE lint_suppressions SET reason = ?, actor = ?, added_unix_ns = ?
        WHERE check_id = ? AND site = ?
        """)
      try update.bind([
        .text(reason), actor.map(SQLValue.text) ?? .null, .integer(entry.addedUnixNanoseconds),
        .text(check), .text(site),
      ])
      try update.run()
      guard connection.changes == 0 else { return false }
      let insert = try connection.prepare(
        """
        INSERT INTO lint_suppressions (check_id, site, reason, actor, added_unix_ns)
        VALUES (?, ?, ?, ?, ?)
        """)
      try insert.bind([
        .text(check), .text(site), .text(reason), actor.map(SQLValue.text) ?? .null,
        .integer(entry.addedUnixNanoseconds),
      ])
      try insert.run()
      return true
    }
  }

  /// Lifts the suppression of `check` at `site` (both capped as ``add(_:)`` caps them).
  ///
  /// - Returns: whether there was such an entry.
  public func remove(check: String, site: String) throws -> Bool {
    let statement = try connection.prepare(
      "DELETE FROM lint_suppressions WHERE check_id = ? AND site = ?")
    try statement.bind([
      .text(RecordedText.capped(check, to: .name)), .text(RecordedText.capped(site, to: .name)),
    ])
    try statement.run()
    return connection.changes > 0
  }

  /// Every entry, by check id, then site (byte order, as SQLite compares text).
  public func entries() throws -> [Entry] {
    let statement = try connection.prepare(
      """
      SELECT check_id, site, reason, actor, added_unix_ns FROM lint_suppressions
      ORDER BY check_id, site, id
      """)
    var entries: [Entry] = []
    while try statement.step() {
      entries.append(
        Entry(
          check: statement.text(at: 0) ?? "", site: statement.text(at: 1) ?? "",
          reason: statement.text(at: 2) ?? "", actor: statement.text(at: 3),
          addedUnixNanoseconds: statement.int64(at: 4)))
    }
    return entries
  }
}
