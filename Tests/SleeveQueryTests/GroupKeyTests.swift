import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

/// Cohorts are keyed by type, not by a joined `key:variant` string: flag keys with colons in a
/// file (written before the key rule, or by another tool) neither invent flags nor share counts.
@Suite("Typed group keys")
struct GroupKeyTests {
  @Test("flags 'a', 'a:on' and 'checkout:v2' keep their own cohorts; no phantom flag appears")
  func colonsInFlagKeys() throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "colons")
    try fixture.handler(session: 1, number: 1, name: "h-a", control: "b", flag: "a")
    try fixture.handler(session: 1, number: 2, name: "h-a-on", control: "b", flag: "a:on")
    try fixture.handler(session: 1, number: 3, name: "h-v2", control: "b", flag: "checkout:v2")
    try fixture.outcomes(session: 1, handler: 1, durations: [1, 1], variant: 1)  // a on: 2
    try fixture.outcomes(session: 1, handler: 2, durations: [1, 1, 1], variant: 0)  // a:on off: 3
    try fixture.outcomes(session: 1, handler: 3, durations: [1, 1, 1, 1], variant: 1)  // 4
    // Outcomes of gated handlers with no variant (a string key would be 'checkout:v2' and
    // 'a:on': split at the last colon, a phantom 'checkout', and counts shared with a's 'on').
    try fixture.outcomes(session: 1, handler: 3, durations: [1], variant: nil)
    try fixture.outcomes(session: 1, handler: 2, durations: [1, 1, 1, 1, 1], variant: nil)
    let database = try QueryDatabase(path: fixture.path)
    var filter = QueryFilter()
    filter.session = .all
    let flags = try database.flags(matching: filter)
    #expect(flags.map(\.key) == ["a", "a:on", "checkout:v2"])
    let byKey = Dictionary(uniqueKeysWithValues: flags.map { ($0.key, $0) })
    #expect(byKey["a"]?.on.n == 2)
    #expect(byKey["a"]?.off.n == 0)
    #expect(byKey["a:on"]?.off.n == 3)
    #expect(byKey["a:on"]?.on.n == 0)
    #expect(byKey["checkout:v2"]?.on.n == 4)
    #expect(byKey["checkout"] == nil)
  }
}
