/// The handlers a team has quarantined (`quarantine`, `Migrations/0003_run_context.sql`):
/// `sleeve check` counts their failures as advisory. The one home of the table's reads and
/// writes; `sleeve quarantine add|remove|list` and `QueryDatabase.quarantine()` go through it.
///
/// A handler is named as reports name it (its `id:`, else its registration site) or by its
/// registration site; a `nil` control quarantines it on every control. There is at most one
/// entry per (handler, control): adding again updates its reason, actor and time.
///
/// ```swift
/// let ledger = QuarantineLedger(connection: try SleeveDatabase.openForWriting(path: path))
/// try ledger.add(QuarantineLedger.Entry(
///   handler: "submit", control: nil, reason: "flaky on CI, #123", actor: "oncall"))
/// ```
public struct QuarantineLedger {
  /// One quarantined handler.
  public struct Entry: Equatable, Sendable {
    /// The handler, as reports name it (or its registration site).
    public let handler: String
    /// The control it is quarantined on; `nil`: every control.
    public let control: String?
    /// Why.
    public let reason: String
    /// Who.
    public let actor: String?
    /// When it was added (or last updated), Unix nanoseconds.
    public let addedUnixNanoseconds: Int64

    /// An entry added now.
    public init(
      handler: String, control: String?, reason: String, actor: String?,
      addedUnixNanoseconds: Int64 = WallClock.unixNanoseconds()
    ) {
      self.handler = handler
      self.control = control
      self.reason = reason
      self.actor = actor
      self.addedUnixNanoseconds = addedUnixNanoseconds
    }
  }

  let connection: Connection

  /// A ledger over an open database (a writer's for ``add(_:)`` and ``remove(handler:control:)``;
  /// a reader's is enough for ``entries()`` and ``knows(handler:control:)``).
  public init(connection: Connection) {
    self.connection = connection
  }

  /// Whether any session recorded a handler named `handler` (as reports name it, or by its
  /// registration site), on a control named `control` when one is given. Names are compared
  /// as recorded: capped like every recorded name.
  public func knows(handler: String, control: String?) throws -> Bool {
    let statement = try connection.prepare(
      """
      SELECT EXISTS (SELECT 1 FROM registrations r LEFT JOIN controls c ON c.id = r.control_id
        WHERE (r.handler = ?1 OR r.site = ?1) AND (?2 IS NULL OR c.name = ?2))
      """)
    try statement.bind(RecordedText.capped(handler, to: .name), at: 1)
    try statement.bind(control.map { RecordedText.capped($0, to: .name) }, at: 2)
    _ = try statement.step()
    return statement.int64(at: 0) != 0
  }

  /// Quarantines `entry.handler` on `entry.control`, its texts capped as every recorded text
  /// is (`RecordedText`: names and actor 1,024 bytes, reason 4,096). An entry already there
  /// for the same (handler, control) is updated, never duplicated.
  ///
  /// - Returns: `true` when the entry is new, `false` when an existing one was updated.
  @discardableResult
  public func add(_ entry: Entry) throws -> Bool {
    let handler = RecordedText.capped(entry.handler, to: .name)
    let control = entry.control.map { RecordedText.capped($0, to: .name) }
    let reason = RecordedText.capped(entry.reason, to: .message)
    let actor = entry.actor.map { RecordedText.capped($0, to: .name) }
    return try connection.transaction {
      let update = try connection.prepare(
        """
        UPDATE quarantine SET reason = ?, actor = ?, added_unix_ns = ?
        WHERE handler = ? AND control IS ?
        """)
      try update.bind([
        .text(reason), actor.map(SQLValue.text) ?? .null, .integer(entry.addedUnixNanoseconds),
        .text(handler), control.map(SQLValue.text) ?? .null,
      ])
      try update.run()
      guard connection.changes == 0 else { return false }
      let insert = try connection.prepare(
        """
        INSERT INTO quarantine (control, handler, reason, actor, added_unix_ns)
        VALUES (?, ?, ?, ?, ?)
        """)
      try insert.bind([
        control.map(SQLValue.text) ?? .null, .text(handler), .text(reason),
        actor.map(SQLValue.text) ?? .null, .integer(entry.addedUnixNanoseconds),
      ])
      try insert.run()
      return true
    }
  }

  /// Takes `handler` on `control` (`nil`: the every-control entry) out of quarantine.
  ///
  /// - Returns: whether there was such an entry.
  public func remove(handler: String, control: String?) throws -> Bool {
    let statement = try connection.prepare(
      "DELETE FROM quarantine WHERE handler = ? AND control IS ?")
    try statement.bind([
      .text(RecordedText.capped(handler, to: .name)),
      control.map { SQLValue.text(RecordedText.capped($0, to: .name)) } ?? .null,
    ])
    try statement.run()
    return connection.changes > 0
  }

  /// Every entry, by handler, the every-control entry before those of single controls.
  public func entries() throws -> [Entry] {
    let statement = try connection.prepare(
      """
      SELECT handler, control, reason, actor, added_unix_ns FROM quarantine
      ORDER BY handler, control IS NOT NULL, control, id
      """)
    var entries: [Entry] = []
    while try statement.step() {
      entries.append(
        Entry(
          handler: statement.text(at: 0) ?? "", control: statement.text(at: 1),
          reason: statement.text(at: 2) ?? "", actor: statement.text(at: 3),
          addedUnixNanoseconds: statement.int64(at: 4)))
    }
    return entries
  }
}
