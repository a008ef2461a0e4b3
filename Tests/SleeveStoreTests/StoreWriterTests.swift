import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

/// The command line's one write facade opens a file as every writer does and writes through
/// the ledgers.
@Suite("Store writer")
struct StoreWriterTests {
  @Test("a new file is created and migrated once; opening it again applies nothing")
  func migratesOnce() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("writer.sqlite")
    let first = try StoreWriter(path: path)
    #expect(first.appliedMigrations == SchemaMigrations.all.map(\.id))
    #expect(first.path == path)
    #expect(try StoreWriter(path: path).appliedMigrations == [])
  }

  @Test("it refuses what every writer refuses: a directory, a file that is not a database")
  func refusesWhatWritersRefuse() throws {
    let directory = TemporaryDirectory()
    #expect(throws: StoreError.self) { try StoreWriter(path: directory.url.path) }
    let junk = directory.path("junk.sqlite")
    try Data(repeating: 0x41, count: 4_096).write(to: URL(fileURLWithPath: junk))
    #expect(throws: StoreError.self) { try StoreWriter(path: junk) }
  }

  @Test("flag changes and ledger entries go through the ledgers, read back by them")
  func writesThroughTheLedgers() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("writer.sqlite")
    let store = try StoreWriter(path: path)
    #expect(try !store.knowsFlag("new-checkout"))
    try store.recordFlagChange(
      FlagLedger.Change(
        key: "new-checkout", state: RecordCodes.FlagChangeState.rollingOut.name, reason: nil,
        actor: "oncall", rolloutBasisPoints: 500))
    #expect(try store.knowsFlag("new-checkout"))
    let reader = try SleeveDatabase.openForReading(path: path)
    let latest = try #require(try FlagLedger(connection: reader).latestStates()["new-checkout"])
    #expect(latest.state == RecordCodes.FlagChangeState.rollingOut.name)
    #expect(latest.rolloutBasisPoints == 500)

    #expect(try store.quarantine(.init(handler: "h", control: nil, reason: "flaky", actor: nil)))
    #expect(try !store.quarantine(.init(handler: "h", control: nil, reason: "still", actor: nil)))
    #expect(try QuarantineLedger(connection: reader).entries().map(\.reason) == ["still"])
    #expect(try store.liftQuarantine(handler: "h", control: nil))
    #expect(try !store.liftQuarantine(handler: "h", control: nil))

    #expect(try store.suppress(.init(check: "L1", site: "s", reason: "known", actor: nil)))
    #expect(try LintSuppressionLedger(connection: reader).entries().count == 1)
    #expect(try store.liftSuppression(check: "L1", site: "s"))
    #expect(try !store.liftSuppression(check: "L1", site: "s"))
  }
}
