import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

/// Damaged or hostile rows give an answer, in bounded time and memory, never a trap.
@Suite("Lint on damaged files")
struct LintDamagedFileTests {
  /// Session 1 with handler 1 on control `feed` and one fire (id `1 << 32 | 1`).
  static func fixture() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "damaged")
    try fixture.handler(session: 1, number: 1, name: "render", control: "feed")
    try fixture.connection.execute(
      """
      INSERT INTO fires (id, control_id, events, origin, depth, at_ns)
      VALUES ((1 << 32) | 1, (1 << 32) | 1, 64, 0, 1, 0);
      INSERT INTO registration_lifetimes (registration_id, added_seq) VALUES ((1 << 32) | 1, 1);
      """)
    return fixture
  }

  @Test(
    "an interaction claiming an enormous or inverted range of fires is read by its rows",
    arguments: [
      "(1 << 32) | 1, (1 << 32) | 4294967295, 4611686018427387904",
      "(1 << 32) | 1, (1 << 32) | 4294967295, 4294967295",
      "(1 << 32) | 9, (1 << 32) | 1, 1",
      "(1 << 32) | 1, (1 << 32) | 1, -5",
    ])
  func hostileInteractionRange(range: String) throws {
    let fixture = try Self.fixture()
    try fixture.connection.execute(
      """
      INSERT INTO interactions (id, control_id, gesture, was_enabled, depth, first_fire_id,
        last_fire_id, fire_count, at_ns, ended_ns)
      VALUES ((1 << 32) | 1, (1 << 32) | 1, 'tap', 1, 1, \(range), 0, 0)
      """)
    let report = try LintScenario.lint(try QueryDatabase(path: fixture.path))
    // The one fire reached no handler: dead, whatever the row claims about its range.
    let dead = report.findings.filter { $0.check == .deadInteraction }
    #expect(dead.count == 1)
    #expect(LintScenario.evidence(try #require(dead.first))["interactions"] == "1")
  }

  @Test("a refused fire whose parents form a cycle gives a bounded chain")
  func cyclicParentsAreBounded() throws {
    let fixture = try Self.fixture()
    try fixture.connection.execute(
      """
      UPDATE fires SET parent_fire_id = id;
      INSERT INTO outcomes (id, fire_id, registration_id, status, is_async, started_ns,
        duration_ns) VALUES ((1 << 32) | 1, (1 << 32) | 1, (1 << 32) | 1, 5, 0, 0, 0);
      """)
    let report = try LintScenario.lint(try QueryDatabase(path: fixture.path))
    let nesting = try #require(report.findings.first { $0.check == .nestingPressure })
    let evidence = LintScenario.evidence(nesting)
    #expect(evidence["depth"] == "4096")
    #expect(evidence["chain"] == "feed → feed → … (4096 fires deep)")
  }

  @Test("counts and sequence numbers at the edges of Int64 neither trap nor wrap")
  func extremeNumbers() throws {
    let fixture = try Self.fixture()
    try fixture.connection.execute(
      """
      UPDATE registrations SET events = -1;
      INSERT INTO registrations (id, session_id, control_id, events, kind, handler, is_async,
        site, registered_at_ns) VALUES ((1 << 32) | 2, 1, (1 << 32) | 1, -1, 'closure',
        'Fixture.swift:1', 0, 'Fixture.swift:1', 0);
      INSERT INTO registration_lifetimes (registration_id, added_seq, removed_seq)
        VALUES ((1 << 32) | 2, -9223372036854775808, 9223372036854775807);
      INSERT INTO outcomes (id, fire_id, registration_id, status, is_async, started_ns,
        duration_ns) VALUES ((1 << 32) | 1, (1 << 32) | 1, (1 << 32) | 1, 0, 0, 0,
        9223372036854775807);
      """)
    let report = try LintScenario.lint(try QueryDatabase(path: fixture.path))
    #expect(report.findings.map(\.check).contains(.accumulation))
    #expect(report.findings.map(\.check).contains(.mainThreadStall))
  }
}
