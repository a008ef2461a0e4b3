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
    let report = try LintScenario.lint(
      try QueryDatabase(path: fixture.path), options: LintOptions())
    #expect(report.findings.map(\.check).contains(.accumulation))
    #expect(report.findings.map(\.check).contains(.mainThreadStall))
  }

  /// Inserts interaction `number` of session 1 on `feed` with the given fire range and end.
  static func interaction(
    _ fixture: FixtureDatabase, number: Int, first: String, last: String, count: String,
    endedNanoseconds: Int64 = 0
  ) throws {
    try fixture.connection.execute(
      """
      INSERT INTO interactions (id, control_id, gesture, was_enabled, depth, first_fire_id,
        last_fire_id, fire_count, at_ns, ended_ns)
      VALUES ((1 << 32) | \(number), (1 << 32) | 1, 'tap', 1, 1, \(first), \(last), \(count),
        0, \(endedNanoseconds))
      """)
  }

  @Test(
    "an interaction is read by the fires of its session it names; naming none is no evidence",
    arguments: [
      // Past the last id: no fire of the session, so no evidence (once trapped at `fire += 1`).
      ("9223372036854775807", "9223372036854775807", "1", 0),
      // From below every id to past every id (once trapped at `last - first`).
      ("-1", "9223372036854775807", "1", 1),
      ("-9223372036854775808", "9223372036854775807", "4294967296", 1),
      // Inverted, or naming only fires that were never written: no evidence either.
      ("(1 << 32) | 9", "(1 << 32) | 1", "1", 0),
      ("(1 << 32) | 2", "(1 << 32) | 3", "2", 0),
    ])
  func interactionAtTheEndsOfTheIdSpace(
    first: String, last: String, count: String, interactions: Int
  ) throws {
    let fixture = try Self.fixture()
    try Self.interaction(fixture, number: 1, first: first, last: last, count: count)
    let report = try LintScenario.lint(try QueryDatabase(path: fixture.path))
    let dead = report.findings.filter { $0.check == .deadInteraction }
    #expect(dead.count == interactions)
    if let finding = dead.first {
      #expect(LintScenario.evidence(finding)["interactions"] == "\(interactions)")
    }
  }

  @Test("an outcome naming another session's fire and handler says nothing of this session's")
  func otherSessionsIdsAreNotThisSessions() throws {
    let fixture = try Self.fixture()
    try fixture.session(2, name: "other")
    try fixture.handler(session: 2, number: 1, name: "render", control: "feed")
    try fixture.connection.execute(
      """
      INSERT INTO fires (id, control_id, events, origin, depth, at_ns)
        VALUES ((2 << 32) | 1, (2 << 32) | 1, 64, 0, 1, 0);
      INSERT INTO outcomes (id, fire_id, registration_id, status, is_async, started_ns,
        duration_ns) VALUES ((1 << 32) | 1, (2 << 32) | 1, (2 << 32) | 1, 0, 0, 0, 900000000);
      """)
    try Self.interaction(
      fixture, number: 1, first: "(1 << 32) | 1", last: "(1 << 32) | 1", count: "1")
    let report = try LintScenario.lint(try QueryDatabase(path: fixture.path))
    // Session 1's one fire ran nothing: its interaction is dead, and no handler of session 1
    // ran for 900 ms (session 2's handler number 1 is not session 1's).
    #expect(report.findings.map(\.check) == [.deadInteraction])
  }

  @Test("interactions whose end times are farther apart than Int64 can subtract are no burst")
  func rageWindowDoesNotWrap() throws {
    let fixture = try Self.fixture()
    for (number, ended) in [Int64.min, 0, Int64.max].enumerated() {
      try Self.interaction(
        fixture, number: number + 1, first: "(1 << 32) | 1", last: "(1 << 32) | 1", count: "1",
        endedNanoseconds: ended)
    }
    let report = try LintScenario.lint(try QueryDatabase(path: fixture.path))
    #expect(!report.findings.contains { $0.check == .rageInteraction })
  }

  @Test("an owner found gone at a fire outside the session is not an orphaned handler of it")
  func ownerReleasedOutsideTheSessionIsNotRead() throws {
    let fixture = try Self.fixture()
    // Fire 5 belongs to no session, yet names session 1's control (a damaged file).
    try fixture.connection.execute(
      """
      INSERT INTO fires (id, control_id, events, origin, depth, at_ns)
        VALUES (5, (1 << 32) | 1, 64, 0, 1, 0);
      INSERT INTO outcomes (id, fire_id, registration_id, status, is_async, started_ns,
        duration_ns) VALUES ((1 << 32) | 1, 5, (1 << 32) | 1, 2, 0, 0, 0);
      """)
    let report = try LintScenario.lint(try QueryDatabase(path: fixture.path))
    #expect(!report.findings.contains { $0.check == .orphanedHandler })
  }

  @Test("a replacement naming another session's registration is no silent replacement here")
  func replacedRegistrationOfAnotherSessionIsNotThisSessions() throws {
    let fixture = try Self.fixture()
    try fixture.session(2, name: "other")
    try fixture.handler(session: 2, number: 1, name: "render", control: "feed")
    try fixture.handler(
      session: 1, number: 2, name: "submit", control: "feed", identifier: "submit",
      site: "Other.swift:2")
    // Session 1's second handler claims to have replaced session 2's first, whose number is
    // that of session 1's first: from another site, by another owner type.
    try fixture.connection.execute(
      """
      UPDATE registrations SET identifier = 'submit', anchor_type = 'Cart'
        WHERE id = (1 << 32) | 1;
      UPDATE registrations SET anchor_type = 'Checkout' WHERE id = (1 << 32) | 2;
      INSERT INTO registration_lifetimes (registration_id, added_seq, replaced_registration_id)
        VALUES ((1 << 32) | 2, 2, (2 << 32) | 1);
      """)
    let report = try LintScenario.lint(try QueryDatabase(path: fixture.path))
    #expect(!report.findings.contains { $0.check == .silentReplacement })
  }

  @Test(
    "in a session that dropped events, an interaction missing fires that ran nothing is unknown",
    arguments: [("dropped_events", 0), ("failed_events", 0), ("write_errors", 1)])
  func interactionMissingFiresInALossySession(counter: String, dead: Int) throws {
    let fixture = try Self.fixture()
    // Three fires claimed, only the first written (an older recorder under a full buffer);
    // two later nested fires make the session's fire count cover the claimed range.
    try Self.interaction(
      fixture, number: 1, first: "(1 << 32) | 1", last: "(1 << 32) | 3", count: "3")
    try fixture.connection.execute(
      """
      INSERT INTO fires (id, control_id, events, origin, depth, at_ns)
        VALUES ((1 << 32) | 4, (1 << 32) | 1, 64, 0, 2, 0), ((1 << 32) | 5, (1 << 32) | 1, 64, 0, 2, 0);
      UPDATE sessions SET \(counter) = 2;
      """)
    let report = try LintScenario.lint(try QueryDatabase(path: fixture.path))
    #expect(report.findings.filter { $0.check == .deadInteraction }.count == dead)
  }

  @Test("interactions naming the same fires over and over are a damaged file, not a long wait")
  func overlappingInteractionsAreDamage() throws {
    let fixture = try Self.fixture()
    // Ten fires, and 100 interactions each naming all ten: 1,000 reads where a recording
    // needs at most 64 per fire (704 here).
    for number in 2...10 {
      try fixture.connection.execute(
        """
        INSERT INTO fires (id, control_id, events, origin, depth, at_ns)
          VALUES ((1 << 32) | \(number), (1 << 32) | 1, 64, 0, 1, 0)
        """)
    }
    for number in 1...100 {
      try Self.interaction(
        fixture, number: number, first: "(1 << 32) | 1", last: "(1 << 32) | 10", count: "1")
    }
    let database = try QueryDatabase(path: fixture.path)
    #expect {
      try LintScenario.lint(database)
    } throws: { error in
      guard case .store(.corrupt(_, let detail)) = error as? QueryError else { return false }
      return detail == "session 1's interactions name its fires more than 64 times over"
    }
    // Ten of them are within a recording's worth: an answer (ten dead taps, a rage burst).
    try fixture.connection.execute("DELETE FROM interactions WHERE (id & 4294967295) > 10")
    let dead = try LintScenario.lint(database).findings.first { $0.check == .deadInteraction }
    #expect(LintScenario.evidence(try #require(dead))["dead interactions"] == "10")
  }
}
