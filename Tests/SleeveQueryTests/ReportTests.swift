import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

@Suite("Reports")
struct ReportTests {
  static func makeFixture() throws -> FixtureDatabase { try FixtureDatabase.standard() }

  static func allSessions() -> QueryFilter {
    var filter = QueryFilter()
    filter.session = .all
    return filter
  }

  @Test("sessions are listed oldest first with their counts; last selects the newest")
  func sessionsAreListed() throws {
    let fixture = try Self.makeFixture()
    let database = try QueryDatabase(path: fixture.path)
    let all = try database.sessions(matching: Self.allSessions())
    #expect(all.map(\.name) == ["alpha", "beta"])
    #expect(all.map(\.outcomes) == [26, 3])
    #expect(all.map(\.fires) == [26, 3])
    #expect(all.allSatisfy { $0.status == "ended" })
    #expect(all.first?.durationSeconds == 2)
    #expect(try database.sessions(matching: QueryFilter()).map(\.name) == ["beta"])
  }

  @Test("error rates count failed over ok + failed, with the other statuses apart")
  func errorRatesByHandler() throws {
    let fixture = try Self.makeFixture()
    let database = try QueryDatabase(path: fixture.path)
    let rows = try database.errorRates(matching: Self.allSessions(), by: .handler)
    #expect(rows.map(\.key) == ["charge", "validate"])
    let charge = rows[0]
    #expect(charge.n == 15)
    #expect(charge.failed == 2)
    #expect(charge.rate == 2.0 / 15.0)
    let interval = try #require(charge.interval)
    #expect(abs(interval.lower - 0.0374) < 1e-4)
    #expect(abs(interval.upper - 0.3788) < 1e-4)
    let validate = rows[1]
    #expect(validate.n == 12)
    #expect(validate.skipped == 1)
    #expect(validate.ownerReleased == 1)
    #expect(validate.rate == 0)
  }

  @Test("latency percentiles match hand-computed values and mark insufficient ones")
  func latencyPercentiles() throws {
    let fixture = try Self.makeFixture()
    let database = try QueryDatabase(path: fixture.path)
    var filter = Self.allSessions()
    filter.session = .id(1)
    filter.handler = "validate"
    let rows = try database.latency(matching: filter, by: .handler, percentiles: [15, 20, 50, 99])
    let row = try #require(rows.first)
    #expect(rows.count == 1)
    #expect(row.n == 9)
    #expect(row.min == 1)
    #expect(row.max == 11)
    #expect(abs((row.mean ?? 0) - 68.0 / 9.0) < 1e-9)
    let values = row.points.map { $0.nanoseconds ?? -1 }
    #expect(abs(values[0] - 4.4) < 1e-9)
    #expect(abs(values[1] - 5.2) < 1e-9)
    #expect(values[2] == 8)
    #expect(row.points.map(\.insufficient) == [false, false, false, true])
  }

  @Test(
    "grouping by control, flag, variant, event and session",
    arguments: [
      (Grouping.control, ["checkout.pay"]),
      (.flag, ["new-pay", "-"]),
      (.variant, ["-", "new-pay:on", "new-pay:off"]),
      (.event, ["touchUpInside", "touchDown"]),
      (.session, ["1 alpha", "2 beta"]),
    ])
  func groupings(grouping: Grouping, keys: [String]) throws {
    let fixture = try Self.makeFixture()
    let database = try QueryDatabase(path: fixture.path)
    let rows = try database.errorRates(matching: Self.allSessions(), by: grouping)
    #expect(rows.map(\.key) == keys)
  }

  @Test("a group with only skipped outcomes has n = 0 and no rate; all failures rate 1")
  func degenerateGroups() throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "edge")
    try fixture.handler(session: 1, number: 1, name: "skipped", control: "c")
    try fixture.handler(session: 1, number: 2, name: "broken", control: "c")
    try fixture.outcomes(session: 1, handler: 1, durations: [0, 0], status: 3)
    try fixture.outcomes(session: 1, handler: 2, durations: [10, 20], status: 1)
    let database = try QueryDatabase(path: fixture.path)
    let rows = try database.errorRates(matching: QueryFilter(), by: .handler)
    let skipped = try #require(rows.first { $0.key == "skipped" })
    #expect(skipped.n == 0)
    #expect(skipped.rate == nil)
    #expect(skipped.interval == nil)
    let broken = try #require(rows.first { $0.key == "broken" })
    #expect(broken.rate == 1)
    let latency = try database.latency(matching: QueryFilter(), by: .handler, percentiles: [50])
    #expect(latency.first { $0.key == "skipped" }?.points.first?.nanoseconds == nil)
  }

  @Test("flags show definition, history and both cohorts")
  func flagReport() throws {
    let fixture = try Self.makeFixture()
    let database = try QueryDatabase(path: fixture.path)
    let flags = try database.flags(matching: Self.allSessions())
    let flag = try #require(flags.first)
    #expect(flags.map(\.key) == ["new-pay"])
    #expect(flag.owner == "payments")
    #expect(flag.state == "rolledBack")
    #expect(flag.history.map(\.reason) == [nil, "errors"])
    #expect(flag.on.n == 10)
    #expect(flag.on.errorRate == 0.2)
    #expect(flag.off.n == 5)
    #expect(flag.off.errorRate == 0)
    #expect(flag.on.p99Insufficient)
  }

  @Test("the gate breaches, holds or passes by the documented precedence")
  func gatePrecedence() throws {
    let fixture = try Self.makeFixture()
    let database = try QueryDatabase(path: fixture.path)
    // Flag on: error rate 0.2 > 0.1 with n = 10 >= 5: breach. p99 needs 100 samples: held.
    // On vs off: 2/10 vs 0/5 failures is not significant; 100-500 ns vs 50 ns is slower.
    let flagged = try database.gate(matching: Self.allSessions(), thresholds: GateThresholds())
    #expect(flagged.checks.map(\.verdict) == [.breach, .insufficient, .pass, .breach])
    #expect(
      flagged.checks.map(\.metric) == [.errorRate, .p99, .errorRateVersusOff, .latencyVersusOff])
    #expect(flagged.decision == .rollback)
    // Only the p99 check of all handlers with few samples: hold.
    var filter = Self.allSessions()
    filter.flag = "no-such-flag"
    let held = try database.gate(
      matching: filter, thresholds: GateThresholds(maxP99Nanoseconds: 1_000))
    #expect(held.decision == .hold)
    // An error-rate check over validate only, enough samples, under the threshold: pass.
    filter.flag = nil
    filter.handler = "validate"
    filter.session = .id(1)
    let passed = try database.gate(
      matching: filter, thresholds: GateThresholds(maxErrorRate: 0.5, minSamples: 5))
    #expect(passed.checks.map(\.subject).contains("all handlers"))
    #expect(passed.checks.last?.verdict == .pass)
  }

  @Test("filters are bound, never spliced: quotes and SQL in a glob match nothing")
  func filtersAreBound() throws {
    let fixture = try Self.makeFixture()
    let database = try QueryDatabase(path: fixture.path)
    var filter = Self.allSessions()
    filter.nameGlob = "x' OR 1=1 --"
    #expect(throws: QueryError.self) { try database.sessions(matching: filter) }
    filter.nameGlob = "al*"
    #expect(try database.sessions(matching: filter).map(\.name) == ["alpha"])
  }

  @Test("a missing file, a session that does not exist and a foreign file are distinct errors")
  func distinctErrors() throws {
    let fixture = try Self.makeFixture()
    #expect(throws: QueryError.databaseNotFound(path: fixture.path + ".missing")) {
      try QueryDatabase(path: fixture.path + ".missing")
    }
    let database = try QueryDatabase(path: fixture.path)
    var filter = QueryFilter()
    filter.session = .id(99)
    #expect(throws: QueryError.sessionNotFound("--session 99")) {
      try database.sessions(matching: filter)
    }
    let foreign = fixture.path + ".foreign"
    let other = try Connection(path: foreign)
    try other.execute("CREATE TABLE notes (text TEXT)")
    #expect(throws: QueryError.store(.notASleeveDatabase(path: foreign, tables: ["notes"]))) {
      try QueryDatabase(path: foreign)
    }
  }
}
