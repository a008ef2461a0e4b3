import Foundation
import SleeveStore

/// A Sleeve database opened for reading by queries.
///
/// ```swift
/// let database = try QueryDatabase(path: "sleeve.sqlite")
/// let sessions = try database.sessions(matching: QueryFilter())
/// ```
public final class QueryDatabase {
  /// The file path.
  public let path: String
  let connection: Connection
  private var readDepth = 0
  /// What must live as long as this database: the scratch file of a history read in its
  /// place (`HistoryMirror`), removed when released.
  package var retained: AnyObject?

  /// Opens `path` read-only and checks that it is a Sleeve database this binary can read.
  ///
  /// - Throws: `QueryError.databaseNotFound` for a missing file; `QueryError.store` for a file
  ///   that is not a Sleeve database (or is damaged, newer, or older: run `sleeve migrate` on
  ///   it); `QueryError.sqlite` otherwise.
  public init(path: String, busyTimeout: Duration = .seconds(5)) throws {
    self.path = path
    connection = try Self.translating(path) {
      guard try DatabaseFile.inspect(path) != .missing else {
        throw QueryError.databaseNotFound(path: path)
      }
      return try SleeveDatabase.openForReading(path: path, busyTimeout: busyTimeout)
    }
  }

  /// Whether the file is read as an immutable snapshot because this process cannot lock it
  /// (a read-only directory, file or mount): commits still in its `-wal` are not seen.
  public var isImmutableSnapshot: Bool { connection.mode == .readOnlyImmutable }

  /// The size of a non-empty `-wal` file beside an immutable snapshot: commits the snapshot
  /// does not see. `nil` when there is none, or when the file is read normally.
  public var unappliedLogBytes: UInt64? {
    guard isImmutableSnapshot,
      let size = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size]
        as? UInt64, size > 0
    else { return nil }
    return size
  }

  /// Runs `body`, turning store and SQLite errors into `QueryError`.
  static func translating<Result>(_ path: String, _ body: () throws -> Result) throws -> Result {
    do {
      return try body()
    } catch let error as QueryError {
      throw error
    } catch let error as StoreError {
      throw QueryError.store(error)
    } catch let error as SQLiteError {
      throw StoreError(error, path: path).map(QueryError.store) ?? .sqlite(error, path: path)
    }
  }

  /// Runs `body` as one read transaction: every query made inside it answers from the same
  /// snapshot of the file, however many there are and whatever recorders commit meanwhile.
  /// A command that prints a header (the sessions) and numbers (the rows) reads both inside
  /// one `snapshot`, so the two can never name different sessions.
  ///
  /// ```swift
  /// let (sessions, rows) = try database.snapshot {
  ///   (try database.sessions(matching: filter), try database.errorRates(matching: filter))
  /// }
  /// ```
  public func snapshot<Result>(_ body: () throws -> Result) throws -> Result {
    try translating(body)
  }

  /// Called before each outermost read transaction begins (tests: a recorder starting a
  /// session between two reads).
  @TaskLocal package static var beforeEachSnapshot: (@Sendable () -> Void)?

  /// Runs `body` as one read transaction (nested calls join the outermost one), so a report
  /// sees one snapshot of the file even while recorders commit batches into it; turns store
  /// and SQLite errors into `QueryError`.
  func translating<Result>(_ body: () throws -> Result) throws -> Result {
    try Self.translating(path) {
      guard readDepth == 0 else {
        readDepth += 1
        defer { readDepth -= 1 }
        return try body()
      }
      Self.beforeEachSnapshot?()
      try connection.execute("BEGIN")
      readDepth = 1
      defer {
        readDepth = 0
        try? connection.execute("COMMIT")
      }
      return try body()
    }
  }
}

@available(*, unavailable)
extension QueryDatabase: Sendable {}
