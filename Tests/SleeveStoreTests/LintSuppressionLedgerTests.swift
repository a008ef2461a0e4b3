import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveStore

/// The lint suppressions (`lint_suppressions`, migration 0004): one entry per (check, site),
/// capped texts, their order, a file from before 0004, and `merge` uniting them.
@Suite("Lint suppression ledger")
struct LintSuppressionLedgerTests {
  typealias Entry = LintSuppressionLedger.Entry

  @Test("adding a (check, site) again updates its reason, actor and time, never duplicates it")
  func addingAgainUpdates() throws {
    let fixture = try FixtureDatabase()
    let ledger = LintSuppressionLedger(connection: fixture.connection)
    #expect(
      try ledger.add(
        Entry(
          check: "mixed-wiring", site: "A.swift:1", reason: "first", actor: "a",
          addedUnixNanoseconds: 1)))
    #expect(
      try !ledger.add(
        Entry(
          check: "mixed-wiring", site: "A.swift:1", reason: "second", actor: nil,
          addedUnixNanoseconds: 2)))
    #expect(
      try ledger.entries() == [
        Entry(
          check: "mixed-wiring", site: "A.swift:1", reason: "second", actor: nil,
          addedUnixNanoseconds: 2)
      ])
    #expect(try fixture.connection.scalarInt("SELECT count(*) FROM lint_suppressions") == 1)
  }

  @Test("entries are ordered by check id, then site; another check or site is its own entry")
  func orderedByCheckThenSite() throws {
    let fixture = try FixtureDatabase()
    let ledger = LintSuppressionLedger(connection: fixture.connection)
    for (check, site) in [
      ("silent-replacement", "B.swift:9"), ("dead-interaction", "PayButton"),
      ("silent-replacement", "A.swift:3"), ("dead-interaction", "CartButton"),
    ] {
      try ledger.add(Entry(check: check, site: site, reason: "r", actor: nil))
    }
    #expect(
      try ledger.entries().map { "\($0.check) \($0.site)" } == [
        "dead-interaction CartButton", "dead-interaction PayButton",
        "silent-replacement A.swift:3", "silent-replacement B.swift:9",
      ])
  }

  @Test("remove lifts exactly the (check, site) given and says whether it was there")
  func removeLiftsOne() throws {
    let fixture = try FixtureDatabase()
    let ledger = LintSuppressionLedger(connection: fixture.connection)
    try ledger.add(Entry(check: "mixed-wiring", site: "A.swift:1", reason: "r", actor: nil))
    try ledger.add(Entry(check: "mixed-wiring", site: "A.swift:2", reason: "r", actor: nil))
    try ledger.add(Entry(check: "orphaned-handler", site: "A.swift:1", reason: "r", actor: nil))
    #expect(try ledger.remove(check: "mixed-wiring", site: "A.swift:1"))
    #expect(try !ledger.remove(check: "mixed-wiring", site: "A.swift:1"))
    #expect(
      try ledger.entries().map { "\($0.check) \($0.site)" } == [
        "mixed-wiring A.swift:2", "orphaned-handler A.swift:1",
      ])
  }

  @Test(
    "check, site, reason and actor are capped as recorded text is, and a capped site still matches")
  func capped() throws {
    let fixture = try FixtureDatabase()
    let ledger = LintSuppressionLedger(connection: fixture.connection)
    let long = String(repeating: "é", count: 5_000)
    try ledger.add(Entry(check: long, site: long, reason: long, actor: long))
    let entry = try #require(try ledger.entries().first)
    #expect(entry.check == RecordedText.capped(long, to: .name))
    #expect(entry.site == RecordedText.capped(long, to: .name))
    #expect(entry.actor == RecordedText.capped(long, to: .name))
    #expect(entry.reason == RecordedText.capped(long, to: .message))
    #expect(entry.reason.hasSuffix(RecordedText.marker))
    #expect(try ledger.remove(check: long, site: long))
    #expect(try ledger.entries().isEmpty)
  }

  @Test("a file from before migration 0004 reads as no suppressions, and is left untouched")
  func olderFileHasNone() throws {
    let old = try FixtureDatabase(migrations: 3)
    try old.session(1, name: "old")
    let before = try Data(contentsOf: URL(fileURLWithPath: old.path))
    let reader = try SleeveDatabase.openForReading(path: old.path)
    #expect(try LintSuppressionLedger(connection: reader).entries().isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: old.path)) == before)
    #expect(
      try Migrator.state(of: old.connection).pending == [
        "0004_interactions", "0005_summaries", "0006_summary_rollups", "0007_rollouts",
        "0008_deliveries", "0009_summary_checksums",
      ])
  }

  @Test("a site is known when a session recorded a registration there or a control of that name")
  func knowsRecordedSitesAndControls() throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "s")
    try fixture.handler(
      session: 1, number: 1, name: "submit", control: "PayButton", site: "App/Pay.swift:9")
    let ledger = LintSuppressionLedger(connection: fixture.connection)
    #expect(try ledger.knows(site: "App/Pay.swift:9"))
    #expect(try ledger.knows(site: "PayButton"))
    #expect(try !ledger.knows(site: "Pay.swift:9"))
    #expect(try !ledger.knows(site: "submit"))
  }

  @Test("merge unites suppressions: the target's own entry is kept, none is duplicated")
  func mergeUnites() throws {
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    try LintSuppressionLedger(connection: target).add(
      Entry(
        check: "mixed-wiring", site: "A.swift:1", reason: "kept from the output", actor: nil,
        addedUnixNanoseconds: 1))
    let input = try FixtureDatabase()
    try input.session(1, name: "s")
    let ledger = LintSuppressionLedger(connection: input.connection)
    try ledger.add(
      Entry(
        check: "mixed-wiring", site: "A.swift:1", reason: "from the input", actor: "ci",
        addedUnixNanoseconds: 2))
    try ledger.add(
      Entry(
        check: "dead-interaction", site: "PayButton", reason: "decorative", actor: "ci",
        addedUnixNanoseconds: 3))
    try ledger.add(
      Entry(
        check: "mixed-wiring", site: "B.swift:4", reason: "legacy", actor: nil,
        addedUnixNanoseconds: 4))
    let merger = SessionMerger(target: target)
    #expect(try merger.merge(path: input.path, includeUnterminated: false).lintSuppressions == 2)
    #expect(try merger.merge(path: input.path, includeUnterminated: false).lintSuppressions == 0)
    #expect(
      try LintSuppressionLedger(connection: target).entries() == [
        Entry(
          check: "dead-interaction", site: "PayButton", reason: "decorative", actor: "ci",
          addedUnixNanoseconds: 3),
        Entry(
          check: "mixed-wiring", site: "A.swift:1", reason: "kept from the output", actor: nil,
          addedUnixNanoseconds: 1),
        Entry(
          check: "mixed-wiring", site: "B.swift:4", reason: "legacy", actor: nil,
          addedUnixNanoseconds: 4),
      ])
  }
}
