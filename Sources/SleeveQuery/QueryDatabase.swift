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

  /// Opens `path` read-only and checks that it is a Sleeve database this binary can read.
  ///
  /// - Throws: `QueryError.databaseNotFound` for a missing file; `QueryError.store` for a file
  ///   that is not a Sleeve database (or is damaged, newer, or older: run `sleeve migrate` on
  ///   it); `QueryError.sqlite` otherwise.
  public init(path: String, busyTimeout: Duration = .seconds(5)) throws {
    self.path = path
    guard FileManager.default.fileExists(atPath: path) else {
      throw QueryError.databaseNotFound(path: path)
    }
    connection = try Self.translating(path) {
      let connection = try SleeveDatabase.openForReading(path: path, busyTimeout: busyTimeout)
      // A file from an older Sleeve lays its rows out differently (0001's ids were
      // session << 40 | n): reading it with this binary's ranges would answer wrongly.
      let state = try Migrator.state(of: connection)
      if !state.applied.isEmpty && !state.pending.isEmpty {
        throw StoreError.olderSchema(path: path, pending: state.pending)
      }
      return connection
    }
  }

  /// Runs `body`, turning store and SQLite errors into `QueryError`.
  static func translating<Result>(_ path: String, _ body: () throws -> Result) throws -> Result {
    do {
      return try body()
    } catch let error as QueryError {
      throw error
    } catch let error as StoreError {
      throw QueryError.store(error)
    } catch SQLiteError.notADatabase {
      throw QueryError.store(.notADatabase(path: path, detail: "file is not a database"))
    } catch SQLiteError.corrupt {
      throw QueryError.store(.corrupt(path: path, detail: "database disk image is malformed"))
    } catch let error as SQLiteError {
      throw QueryError.sqlite(error, path: path)
    }
  }

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
