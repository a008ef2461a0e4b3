import SleeveQuery
import SleeveTestSupport
import Testing

/// Per-session tallies keyed as runs are matched, and failure kinds.
@Suite("Session tallies")
struct SessionTalliesTests {
  @Test("the same handler id on two controls is two handlers, each with its site")
  func identityIsControlAndHandler() throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "run")
    try fixture.handler(
      session: 1, number: 1, name: "submit", control: "CheckoutView", site: "Checkout.swift:10")
    try fixture.handler(
      session: 1, number: 2, name: "submit", control: "PaymentView", site: "Payment.swift:20")
    try fixture.samples(session: 1, handler: 1, [.init(5), .init(6, failed: true)])
    try fixture.samples(session: 1, handler: 2, [.init(7)])
    let database = try QueryDatabase(path: fixture.path)
    var filter = QueryFilter()
    filter.session = .all
    let tallies = try database.tallies(
      of: try database.sessions(matching: filter), filter: filter, by: .handler,
      collectDurations: true)
    let groups = try #require(tallies.first).groups
    #expect(
      groups.map(\.groupKey) == [
        .handler(control: "CheckoutView", name: "submit"),
        .handler(control: "PaymentView", name: "submit"),
      ])
    #expect(groups.map(\.site) == ["Checkout.swift:10", "Payment.swift:20"])
    #expect(groups.map(\.ran) == [2, 1])
    #expect(groups[0].failureKinds == [FailureKind(type: "CheckoutError", message: nil): 1])
  }

  @Test(
    "failure kinds take out what varies between runs: numbers, hex ids, UUIDs",
    arguments: [
      ("timeout after 312 ms (order 8f3a9c21e0)", "timeout after # ms (order #)"),
      ("timeout after 97 ms (order 0b1c2d3e4f)", "timeout after # ms (order #)"),
      ("card declined", "card declined"),
      ("user 42 cafe7 v2", "user # # v#"),
      ("id 123e4567-e89b-12d3-a456-426614174000", "id #-#-#-#-#"),
    ])
  func patterns(message: String, pattern: String) {
    #expect(FailureKind(type: "E", message: message).pattern == pattern)
  }

  @Test("a huge message makes a pattern of at most 200 scalars; no type reads as '-'")
  func capped() {
    let kind = FailureKind(type: "", message: String(repeating: "é x ", count: 100_000))
    #expect(kind.pattern.unicodeScalars.count == FailureKind.maximumPatternScalars)
    #expect(kind.type == "-")
  }
}
