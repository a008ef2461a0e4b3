import Foundation
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

/// The quarantine list: one entry per (handler, control), capped texts, what an entry matches,
/// and a file from before the list.
@Suite("Quarantine list")
struct QuarantineTests {
  static let submit = GroupKey.handler(control: "CheckoutView", name: "submit")

  @Test(
    "an entry matches its handler by name or registration site, on its control or, without one, on every control",
    arguments: [
      ("submit", nil, submit, true),
      ("submit", "CheckoutView", submit, true),
      ("submit", "PaymentView", submit, false),
      ("Checkout.swift:10", nil, submit, true),
      ("Checkout.swift:11", nil, submit, false),
      ("submi", nil, submit, false),
      ("submit", nil, GroupKey.name("submit"), false),
      ("submit", nil, GroupKey.handler(control: nil, name: "submit"), true),
      ("submit", "CheckoutView", GroupKey.handler(control: nil, name: "submit"), false),
    ] as [(String, String?, GroupKey, Bool)])
  func matching(handler: String, control: String?, key: GroupKey, matches: Bool) {
    let entry = QuarantineEntry(handler: handler, control: control, reason: "r", actor: nil)
    #expect(entry.matches(key, site: "Checkout.swift:10") == matches)
  }

  @Test("adding twice updates the entry, never duplicates it; each control is its own entry")
  func addingTwiceUpdates() throws {
    let fixture = try FixtureDatabase()
    let ledger = QuarantineLedger(connection: fixture.connection)
    #expect(try ledger.add(.init(handler: "submit", control: nil, reason: "first", actor: "a")))
    #expect(
      try !ledger.add(
        .init(
          handler: "submit", control: nil, reason: "second", actor: "b", addedUnixNanoseconds: 7)))
    #expect(
      try ledger.add(.init(handler: "submit", control: "PaymentView", reason: "p", actor: nil)))
    let entries = try QueryDatabase(path: fixture.path).quarantine()
    #expect(
      entries == [
        QuarantineEntry(
          handler: "submit", control: nil, reason: "second", actor: "b", addedUnixNanoseconds: 7),
        QuarantineEntry(
          handler: "submit", control: "PaymentView", reason: "p", actor: nil,
          addedUnixNanoseconds: entries[1].addedUnixNanoseconds),
      ])
    #expect(try ledger.remove(handler: "submit", control: nil))
    #expect(try !ledger.remove(handler: "submit", control: nil))
    #expect(try QueryDatabase(path: fixture.path).quarantine().map(\.control) == ["PaymentView"])
  }

  @Test(
    "reason, names and actor are capped as every recorded text is, and a capped name still matches")
  func capped() throws {
    let fixture = try FixtureDatabase()
    let ledger = QuarantineLedger(connection: fixture.connection)
    let long = String(repeating: "é", count: 5_000)
    try ledger.add(.init(handler: long, control: long, reason: long, actor: long))
    let entry = try #require(try QueryDatabase(path: fixture.path).quarantine().first)
    #expect(entry.handler.utf8.count <= RecordedText.Limit.name.bytes)
    #expect(entry.control?.utf8.count ?? 0 <= RecordedText.Limit.name.bytes)
    #expect(entry.actor?.utf8.count ?? 0 <= RecordedText.Limit.name.bytes)
    #expect(entry.reason.utf8.count <= RecordedText.Limit.message.bytes)
    #expect(entry.reason.hasSuffix(RecordedText.marker))
    #expect(try ledger.remove(handler: long, control: long))
  }

  @Test("a file from before the quarantine list reads as an empty list, untouched")
  func olderFileIsEmpty() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("0002.sqlite")
    try OlderDatabase.create(at: path)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(try QueryDatabase(path: path).quarantine().isEmpty)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("a handler is known by its name or site, on the control given")
  func knows() throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "run")
    try fixture.handler(
      session: 1, number: 1, name: "submit", control: "CheckoutView", site: "Checkout.swift:10")
    let ledger = QuarantineLedger(connection: fixture.connection)
    #expect(try ledger.knows(handler: "submit", control: nil))
    #expect(try ledger.knows(handler: "Checkout.swift:10", control: "CheckoutView"))
    #expect(try !ledger.knows(handler: "submit", control: "PaymentView"))
    #expect(try !ledger.knows(handler: "charge", control: nil))
  }
}
