/// Why a file cannot be used as a Sleeve database. Each description is one line that names
/// the file, what is wrong and what to do.
public enum StoreError: Error, Equatable, CustomStringConvertible {
  /// The file is not a SQLite database at all (random bytes, truncated header, encrypted).
  case notADatabase(path: String, detail: String)
  /// The file is a SQLite database that Sleeve did not create.
  case notASleeveDatabase(path: String, tables: [String])
  /// The file was written by a newer Sleeve: it has migrations this binary does not know.
  case newerSchema(path: String, unknown: [String])
  /// The file is damaged.
  case corrupt(path: String, detail: String)
  /// The path names a FIFO, a device, a socket or a directory (`kind` says which): Sleeve
  /// opens regular files only, so it never blocks on a FIFO or writes over a device.
  case notARegularFile(path: String, kind: String)
  /// The path is a symbolic link to a file that does not exist; Sleeve never creates a file
  /// through a link.
  case danglingLink(path: String)
  /// The path is the `-wal`, `-shm` or `-journal` file of the database `database`: SQLite's,
  /// never a database of its own.
  case companionFile(path: String, database: String)
  /// The file exists but cannot be read or created (`reason`: permission denied, …).
  case unreadable(path: String, reason: String)
  /// The file holds no Sleeve tables yet: it is empty or being created by a recorder.
  case noSessionsYet(path: String)
  /// The file was written by an older Sleeve: migrations this binary knows are not applied
  /// (readers refuse it rather than read rows laid out differently).
  case olderSchema(path: String, pending: [String])
  /// A migration refused to rewrite the file (a value in it does not fit the new layout);
  /// nothing of the migration was applied.
  case migrationRefused(path: String, migration: String, reason: String)
  /// Every session id the file can hold is taken (ids are `RowID.sessions`, given in
  /// ascending order).
  case noSessionIDsLeft(path: String)

  /// One line naming the file, what is wrong and what to do.
  public var description: String {
    switch self {
    case .notADatabase(let path, let detail):
      "'\(path)' is not a SQLite database (\(detail)); pass the path of a Sleeve database"
    case .notASleeveDatabase(let path, let tables):
      "'\(path)' is a SQLite database but not a Sleeve database (it has tables "
        + "\(tables.prefix(5).joined(separator: ", ")) and no schema_migrations); "
        + "pass the path of a Sleeve database"
    case .newerSchema(let path, let unknown):
      "'\(path)' was written by a newer Sleeve (unknown migrations: "
        + "\(unknown.joined(separator: ", "))); upgrade Sleeve to read it"
    case .corrupt(let path, let detail):
      "'\(path)' is damaged (\(detail)); restore it from a copy or record a new session"
    case .notARegularFile(let path, let kind):
      "'\(path)' is \(kind), not a regular file; pass the path of a Sleeve database file"
    case .companionFile(let path, let database):
      "'\(path)' belongs to the database '\(database)' (SQLite keeps its log there); pass "
        + "the database itself, or another path"
    case .danglingLink(let path):
      "'\(path)' is a symbolic link to a file that does not exist; Sleeve does not create "
        + "files through links: fix the link or pass another path"
    case .unreadable(let path, let reason):
      "cannot use '\(path)': \(reason); check the path and its permissions"
    case .noSessionsYet(let path):
      "'\(path)' holds no sessions yet (it is empty, or a recorder is creating it); "
        + "record a session first"
    case .olderSchema(let path, let pending):
      "'\(path)' was written by an older Sleeve (pending migrations: "
        + "\(pending.joined(separator: ", "))); run 'sleeve migrate --db \(path)' to read it"
    case .migrationRefused(let path, let migration, let reason):
      "'\(path)' cannot be migrated to \(migration) (\(reason)); the file is unchanged"
    case .noSessionIDsLeft(let path):
      "'\(path)' has no session ids left (the highest, "
        + "\(RowID.sessions.upperBound), is taken); record or merge into a new file"
    }
  }
}

extension StoreError: CommandFailure {
  /// 66 for a file that is not there to read (missing behind a link, unreadable, empty); 65
  /// for one that is there but is not a Sleeve database this binary can use.
  public var exitCode: ExitCode {
    switch self {
    case .danglingLink, .unreadable, .noSessionsYet: .notFound
    case .notADatabase, .notASleeveDatabase, .newerSchema, .corrupt, .notARegularFile,
      .companionFile, .olderSchema, .migrationRefused, .noSessionIDsLeft:
      .dataError
    }
  }
}
