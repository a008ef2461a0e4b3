/// The one way the command line writes a Sleeve database: the file opened for writing once, as
/// every writer opens it (`SleeveDatabase.openForWriting`: refused unless a regular file or
/// nothing, created 0600 only where nothing is, migrated, checked, with the busy timeout), and
/// the writes the commands make (flag states, the quarantine and lint-suppression ledgers,
/// summaries, prunes, merges), each in the transactions its ledger or pass already uses.
///
/// The writes are grouped by what they touch: `StoreWriter+Ledgers.swift` (flag states and
/// ledgers), `StoreWriter+Retention.swift` (summarize, prune), `StoreWriter+Merge.swift`.
/// The connection is closed when the writer goes away.
///
/// ```swift
/// let store = try StoreWriter(path: "sleeve.sqlite")
/// try store.recordFlagChange(
///   FlagLedger.Change(key: "new-checkout", state: RecordCodes.FlagChangeState.rolledBack.name,
///                     reason: "p99 over budget", actor: "oncall"))
/// ```
public final class StoreWriter {
  /// The connection every write goes through.
  let connection: Connection
  /// The migrations opening the file applied, in order (empty when it was up to date).
  public let appliedMigrations: [String]

  /// Opens `path` for writing, creating it when missing, applying pending migrations and
  /// checking the schema.
  ///
  /// - Throws: `StoreError` for a path that is not a regular file, not (or not yet readable
  ///   as) a Sleeve database, newer, or damaged; `SQLiteError` for I/O, permission and lock
  ///   failures (a lock held past `busyTimeout` is `SQLiteError.busy`).
  public init(path: String, busyTimeout: Duration = .seconds(5)) throws {
    let opened = try SleeveDatabase.migrate(path: path, busyTimeout: busyTimeout)
    connection = opened.connection
    appliedMigrations = opened.applied
  }

  /// The database file, as given.
  public var path: String { connection.path }
}

@available(*, unavailable)
extension StoreWriter: Sendable {}
