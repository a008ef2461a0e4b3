import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveQuery

/// Right answers at the edges (issue 10, items 13, 16, 17 and 20 to 25): values a file can
/// hold, ids at the ends of their ranges, hostile and lost rows.
@Suite("Answers at the edges")
struct EdgeAnswerTests {
  static func all() -> QueryFilter {
    var filter = QueryFilter()
    filter.session = .all
    return filter
  }

  // MARK: Item 16: the last sessions are visible

  @Test(
    "sessions 2^23 - 1, 2^23 and 2^31 - 1 show their fires and outcomes in every query",
    arguments: [Int64(8_388_607), 8_388_608, RowID.sessions.upperBound])
  func lastSessionsAreVisible(session: Int64) throws {
    let fixture = try FixtureDatabase()
    try fixture.addAlpha(as: session)
    let database = try QueryDatabase(path: fixture.path)
    let summary = try #require(try database.sessions(matching: Self.all()).first)
    #expect(summary.id == session)
    #expect(summary.fires == 26 && summary.outcomes == 26)
    let rows = try database.errorRates(matching: Self.all(), by: .handler)
    #expect(rows.map(\.key) == ["charge", "validate"])
    #expect(rows.map(\.n) == [15, 9])
    #expect(
      try database.latency(matching: Self.all(), by: .session, percentiles: [50]).first?.n == 24)
  }

  // MARK: Item 13: values a file can hold never trap

  @Test("a session id of Int64.max is listed as it is, owning no rows; queries answer")
  func hugeSessionIDIsListed() throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.session(.max, name: "hostile", startedSeconds: 1_800_000_000, uuidNumber: 9)
    let database = try QueryDatabase(path: fixture.path)
    let hostile = try #require(
      try database.sessions(matching: Self.all()).first { $0.name == "hostile" })
    #expect(hostile.id == .max)
    #expect(hostile.fires == 0 && hostile.outcomes == 0)
    #expect(try database.errorRates(matching: QueryFilter(), by: .handler).isEmpty)
    var filter = QueryFilter()
    filter.session = .id(.max)
    #expect(try database.flags(matching: filter).isEmpty)
  }

  @Test("started Int64.min, ended Int64.max and a heartbeat of Int64.min are shown as they are")
  func extremeTimesAreShown() throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute(
      """
      UPDATE sessions SET started_unix_ns = \(Int64.min), ended_unix_ns = \(Int64.max) WHERE id = 1;
      UPDATE sessions SET status = 'running', ended_unix_ns = NULL,
        heartbeat_unix_ns = \(Int64.min) WHERE id = 2;
      """)
    let database = try QueryDatabase(path: fixture.path)
    let sessions = try database.sessions(matching: Self.all())
    let first = try #require(sessions.first { $0.id == 1 })
    #expect(first.startedUnixNanoseconds == .min && first.lastSeenUnixNanoseconds == .max)
    #expect(first.durationSeconds == (Double(Int64.max) - Double(Int64.min)) / 1e9)
    #expect(sessions.first { $0.id == 2 }?.liveness == .unterminated)
  }

  @Test(
    "durations of Int64.max and Int64.min give percentiles, sums, a Hodges-Lehmann shift and a flag verdict, never a trap"
  )
  func extremeDurations() throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "s")
    try fixture.handler(session: 1, number: 1, name: "h", control: "c", flag: "f")
    try fixture.outcomes(
      session: 1, handler: 1, durations: Array(repeating: .max, count: 40), variant: 1)
    try fixture.outcomes(
      session: 1, handler: 1, durations: Array(repeating: .min, count: 40), variant: 0)
    try fixture.flag(
      session: 1, key: "f", owner: "o", maxErrorRate: 0.1, maxP99: .max, minSamples: 30,
      states: [])
    let database = try QueryDatabase(path: fixture.path)
    let latency = try #require(
      try database.latency(matching: Self.all(), by: .handler, percentiles: [50, 99, 100]).first)
    #expect(latency.min == .min && latency.max == .max)
    // Exact: 40 · (2^63 − 1) + 40 · (−2^63) is −40, over 80 (in doubles the two sums cancel to 0).
    #expect(latency.mean == -0.5)
    #expect(
      latency.points.map(\.nanoseconds) == [
        Double(Int64.min) / 2 + Double(Int64.max) / 2, Double(Int64.max), Double(Int64.max),
      ])
    let verdict = try #require(try database.verdicts(matching: Self.all()).first)
    let shift = try #require(verdict.checks.first { $0.metric == .latencyVersusOff })
    #expect(shift.value == Double(Int64.max) - Double(Int64.min))
    #expect(shift.detail?.contains("9.223372036854776e+18 ns") == true)
    #expect(verdict.decision == .rollback)  // flag-on is (enormously) slower
  }

  @Test(
    "an export time that does not fit in Int64 (start + offset) is a damaged row, named, not a wrapped time",
    arguments: ["fires", "outcomes"])
  func exportTimeOverflowNamesTheRow(table: String) throws {
    let fixture = try FixtureDatabase.standard()
    let column = table == "fires" ? "at_ns" : "started_ns"
    try fixture.connection.execute(
      "UPDATE \(table) SET \(column) = \(Int64.max) WHERE id = (SELECT min(id) FROM \(table))")
    let id = try #require(try fixture.connection.scalarInt("SELECT min(id) FROM \(table)"))
    let database = try QueryDatabase(path: fixture.path)
    let alpha = try #require(try database.sessions(matching: Self.all()).first)
    let error = try #require(throws: QueryError.self) {
      try database.forEachFireGroup(in: alpha) { _ in }
    }
    #expect(error.description.contains("\(table) row \(id)"))
    guard case .store(.corrupt) = error else {
      Issue.record("expected a damaged-file error (65), got \(error)")
      return
    }
  }

  // MARK: Items 13 and 16: a file from the previous Sleeve

  @Test("a file written with 0001's ids is refused by queries with 'run sleeve migrate'")
  func olderFilesAreRefused() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("old.sqlite")
    try Migrator.migrate(
      try Connection(path: path), migrations: Array(SchemaMigrations.all.prefix(1)))
    let error = try #require(throws: QueryError.self) { try QueryDatabase(path: path) }
    #expect(
      error
        == .store(
          .olderSchema(
            path: path,
            pending: [
              "0002_row_ids", "0003_run_context", "0004_interactions", "0005_summaries",
              "0006_summary_rollups", "0007_rollouts", "0008_deliveries", "0009_summary_checksums",
            ])))
    #expect(error.description.contains("run 'sleeve migrate --db \(path)'"))
  }

  // MARK: Item 17: UUIDs in any case

  @Test(
    "a UUID stored in upper case is selected by --session in either case",
    arguments: ["ABCDEF01-2345-4678-9ABC-DEF012345678", "abcdef01-2345-4678-9abc-def012345678"])
  func uuidSelectionIgnoresCase(given: String) throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute(
      "UPDATE sessions SET uuid = 'ABCDEF01-2345-4678-9ABC-DEF012345678' WHERE id = 1")
    let database = try QueryDatabase(path: fixture.path)
    var filter = QueryFilter()
    filter.session = try #require(SessionSelector(given))
    #expect(try database.sessions(matching: filter).map(\.name) == ["alpha"])
  }

  // MARK: Item 20: tests with no variance

  @Test(
    "Mann-Whitney with every value tied: p = 1 and no variance (scipy 1.17.1 mannwhitneyu([7]*5, [7]*8, alternative='greater', method='asymptotic').pvalue == 1.0)"
  )
  func mannWhitneyWithNoVariance() throws {
    let test = try #require(
      MannWhitneyTest(Array(repeating: 7, count: 5), Array(repeating: 7, count: 8)))
    #expect(test.u == 20)  // scipy: statistic 20.0
    #expect(test.pValue == 1)
    #expect(test.noVariance)
    let varied = try #require(MannWhitneyTest([1, 2, 3], [1, 2, 2]))
    #expect(!varied.noVariance)
  }

  @Test(
    "two proportions with a pooled proportion of 0 or 1: p = 1 and no variance, as Mann-Whitney (statsmodels 0.15.0 proportions_ztest gives nan there: 0/0)",
    arguments: [(0, 50, 0, 40), (50, 50, 40, 40)])
  func twoProportionsWithNoVariance(a: Int, n: Int, b: Int, m: Int) throws {
    let test = try #require(TwoProportionTest(successes1: a, trials1: n, successes2: b, trials2: m))
    #expect(test.pValue == 1)
    #expect(test.z == 0)
    #expect(test.noVariance)
  }

  @Test(
    "one failure against none is an ordinary test (statsmodels 0.15.0 proportions_ztest([1, 0], [50, 40], alternative='larger') = (0.8994380267950338, 0.18420969594097886))"
  )
  func twoProportionsNearZero() throws {
    let test = try #require(
      TwoProportionTest(successes1: 1, trials1: 50, successes2: 0, trials2: 40))
    #expect(abs(test.z - 0.8994380267950338) < 1e-12)
    #expect(abs(test.pValue - 0.18420969594097886) < 1e-12)
    #expect(!test.noVariance)
  }

  @Test("a flag whose cohorts have no variance passes its comparisons and says why")
  func verdictWithNoVariance() {
    var on = GroupTally(key: "on")
    on.counts[0] = 40
    on.durations = Array(repeating: 9, count: 40)
    let report = FlagReport(
      key: "f", owner: "o", maxErrorRate: nil, maxP99Nanoseconds: nil, minSamples: 30,
      history: [], on: .init(on), off: .init(on))
    let verdict = FlagVerdict(report)
    #expect(verdict.checks.map(\.verdict) == [.pass, .pass])
    #expect(verdict.checks.map(\.pValue) == [1, 1])
    #expect(verdict.checks.allSatisfy { $0.detail?.contains(FlagVerdict.noVarianceNote) == true })
    #expect(verdict.decision == .promote)
  }

  // MARK: Item 21: report and check decide alike

  @Test(
    "the report's decision is the gate's for the same selection: nothing to check, hold, promote, rollback",
    arguments: ["none", "hold", "promote", "rollback"])
  func reportAndGateAgree(case name: String) throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "s")
    try fixture.handler(session: 1, number: 1, name: "h", control: "c", flag: "f")
    let on = name == "hold" ? 3 : 40
    try fixture.outcomes(
      session: 1, handler: 1, durations: Array(repeating: 5, count: on), variant: 1)
    if name == "rollback" {
      try fixture.outcomes(
        session: 1, handler: 1, durations: Array(repeating: 5, count: 40), status: 1, variant: 1)
    }
    if name != "none" {
      try fixture.flag(
        session: 1, key: "f", owner: "o", maxErrorRate: 0.1, maxP99: nil, minSamples: 30,
        states: [])
    }
    let database = try QueryDatabase(path: fixture.path)
    let report = try database.rolloutReport(matching: Self.all())
    let gate = try database.gate(matching: Self.all(), thresholds: GateThresholds())
    let expected: RolloutDecision =
      switch name {
      case "none": .nothingToCheck
      case "hold": .hold
      case "promote": .promote
      default: .rollback
      }
    #expect(report.decision == expected)
    #expect(gate.decision == report.decision)
  }

  // MARK: Item 22: p100

  @Test("p100 is insufficient for every n: the rule n < 1/(1 - p) at p = 100, as documented")
  func p100IsAlwaysInsufficient() {
    for count in [0, 1, 100, 1_000_000, Int.max] {
      #expect(Percentile.isInsufficient(count: count, point: 100))
    }
    #expect(!Percentile.isInsufficient(count: 100_000, point: 99.999))
  }

  // MARK: Item 23: --handler selects by name, id or site

  static func targetActionFixture() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute(
      """
      UPDATE registrations SET kind = 'targetAction', handler = 'Router.dismiss',
        identifier = 'dismiss', site = 'Router.swift:12' WHERE handler = 'validate';
      UPDATE registrations SET identifier = 'charge', site = 'Checkout.swift:40'
        WHERE handler = 'charge';
      """)
    return fixture
  }

  @Test(
    "--handler selects a handler by its name, its bare id or its registration site",
    arguments: [
      ("Router.dismiss", "Router.dismiss"), ("dismiss", "Router.dismiss"),
      ("Router.swift:12", "Router.dismiss"), ("charge", "charge"), ("Checkout.swift:40", "charge"),
    ])
  func handlerSelection(given: String, selects: String) throws {
    let fixture = try Self.targetActionFixture()
    let database = try QueryDatabase(path: fixture.path)
    var filter = Self.all()
    filter.handler = given
    #expect(try database.errorRates(matching: filter, by: .handler).map(\.key) == [selects])
    #expect(try database.unmatchedFilters(filter).isEmpty)
  }

  @Test(
    "a filter that matches nothing is named; each matching but not together is said too",
    arguments: [
      ("handler", "nope", "--handler 'nope' matched no handler"),
      ("control", "nope", "--control 'nope' matched no control"),
      ("flag", "nope", "--flag 'nope' matched no flag"),
      ("both", "", "together they match no handler"),
    ])
  func unmatchedFiltersAreNamed(option: String, value: String, note: String) throws {
    let fixture = try Self.targetActionFixture()
    let database = try QueryDatabase(path: fixture.path)
    var filter = Self.all()
    switch option {
    case "handler": filter.handler = value
    case "control": filter.control = value
    case "flag": filter.flag = value
    default:
      filter.handler = "dismiss"
      filter.flag = "new-pay"
    }
    #expect(try database.errorRates(matching: filter, by: .handler).isEmpty)
    let notes = try database.unmatchedFilters(filter)
    #expect(notes.count == 1)
    #expect(notes.first?.contains(note) == true)
  }

  // MARK: Item 24: every grouping accounts for every outcome

  @Test("totals are equal across every grouping on a file with orphaned outcomes")
  func everyGroupingCountsEveryOutcome() throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute(
      """
      PRAGMA foreign_keys = OFF;
      DELETE FROM fires WHERE id IN (SELECT fire_id FROM outcomes WHERE status = 1);
      DELETE FROM fires WHERE id = (SELECT min(fire_id) FROM outcomes WHERE variant = 0);
      INSERT INTO outcomes (id, fire_id, registration_id, status, is_async, started_ns,
        duration_ns) VALUES ((2 << 32) | 900, (2 << 32) | 901, (2 << 32) | 77, 1, 0, 0, 3);
      DELETE FROM controls WHERE session_id = 2;
      """)
    let total = try #require(try fixture.connection.scalarInt("SELECT count(*) FROM outcomes"))
    let ran = try #require(
      try fixture.connection.scalarInt("SELECT count(*) FROM outcomes WHERE status <= 1"))
    let database = try QueryDatabase(path: fixture.path)
    for grouping in Grouping.allCases {
      let rows = try database.errorRates(matching: Self.all(), by: grouping)
      let counted = rows.reduce(0) {
        $0 + $1.n + $1.ownerReleased + $1.skipped + $1.cancelled + $1.recursionLimit
      }
      #expect(counted == Int(total), "--by \(grouping.rawValue)")
      let latency = try database.latency(matching: Self.all(), by: grouping, percentiles: [50])
      #expect(latency.reduce(0) { $0 + $1.n } == Int(ran), "--by \(grouping.rawValue)")
    }
    let byEvent = try database.errorRates(matching: Self.all(), by: .event)
    #expect(byEvent.contains { $0.key == GroupTally.unknownKey })
    let byControl = try database.errorRates(matching: Self.all(), by: .control)
    #expect(byControl.first { $0.key == GroupTally.unknownKey }?.n == 4)  // beta's 3 + the orphan
  }

  // MARK: Item 25: Wilson bounds exactly at 0 and 1

  @Test(
    "the Wilson lower bound with 0 failures is exactly 0, the upper with all failures exactly 1 (statsmodels 0.15.0 proportion_confint(0, 10, method='wilson') = (0.0, 0.27753279986288926))",
    arguments: [1, 3, 10, 49, 1_000, 123_457])
  func wilsonBoundsAreExact(trials: Int) throws {
    let none = try #require(WilsonInterval(successes: 0, trials: trials))
    #expect(none.lower == 0)
    let all = try #require(WilsonInterval(successes: trials, trials: trials))
    #expect(all.upper == 1)
    if trials == 10 {
      #expect(abs(none.upper - 0.27753279986288926) < 1e-12)
      #expect(abs(all.lower - 0.7224672001371106) < 1e-12)
    }
  }
}
