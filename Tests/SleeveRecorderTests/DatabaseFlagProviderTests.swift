import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// `DatabaseFlagProvider` only reads: a missing path fails instead of creating a database, and
/// a state it does not know fails the refresh instead of serving `disabled`.
@Suite("DatabaseFlagProvider")
struct DatabaseFlagProviderTests {
  @Test("a missing path is an error and nothing is created")
  func missingPathFails() throws {
    let directory = TemporaryDirectory()
    let typo = directory.path("sleve.sqlite")
    let error = try #require(throws: RecorderError.self) { try DatabaseFlagProvider(path: typo) }
    #expect(error.description.contains("no such file"), "\(error)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).isEmpty)
  }

  @Test("reading and refreshing leave the file byte for byte as it was")
  func neverWrites() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("flags.sqlite")
    let writer = try SleeveDatabase.openForWriting(path: path)
    try FlagLedger(connection: writer).record(
      .init(key: "f", state: "rolledBack", reason: "r", actor: "a"))
    try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let flags = try DatabaseFlagProvider(path: path)
    try flags.refresh()
    #expect(flags.state(of: "f") == .rolledBack(reason: "r"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("an unknown recorded state fails the refresh, and the states read before stay")
  func unknownStateFails() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("flags.sqlite")
    let writer = try SleeveDatabase.openForWriting(path: path)
    let ledger = FlagLedger(connection: writer)
    try ledger.record(.init(key: "f", state: "enabled", reason: nil, actor: nil))
    let flags = try DatabaseFlagProvider(path: path)
    #expect(flags.state(of: "f") == .enabled)
    try writer.execute("PRAGMA ignore_check_constraints = 1")
    try ledger.record(.init(key: "f", state: "paused", reason: nil, actor: nil))
    let error = try #require(throws: RecorderError.self) { try flags.refresh() }
    #expect(error.description.contains("unknown state 'paused'"), "\(error)")
    #expect(flags.state(of: "f") == .enabled)
  }
}
