import Foundation
import SleeveCore
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

/// How findings pool, what a suppression or `--disable` does, the exact p99 of a stall, and
/// files recorded before lint's data.
@Suite("Lint report")
struct LintReportTests {
  @Test("the same pitfall in two sessions is one finding: counts summed, both sessions named")
  func findingsPoolAcrossSessions() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory, sessions: 2) { screen, _ in
      LintCheckTests.configure(screen.pay)
      LintCheckTests.configure(screen.pay)
    }
    let report = try LintScenario.lint(database)
    try #require(report.findings.count == 1, "\(LintScenario.summary(report))")
    #expect(report.findings[0].sessions.count == 2)
    let evidence = LintScenario.evidence(report.findings[0])
    #expect(evidence["registrations"] == "4" && evidence["live at once"] == "2")
    #expect(evidence["sessions"] == "2")
  }

  @Test("a disabled check does not run; a suppressed finding is listed apart with its reason")
  func disableAndSuppress() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, session in
      LintCheckTests.configure(screen.pay)
      LintCheckTests.configure(screen.pay)
      let help = Button(name: "checkout.help", observer: session)
      help.tap()
    }
    var options = LintOptions()
    options.disabled = [.deadInteraction]
    let disabled = try LintScenario.lint(database, options: options)
    #expect(disabled.findings.map(\.check) == [.accumulation])
    #expect(!disabled.checks.contains(.deadInteraction))
    let site = try #require(disabled.findings.first?.site)
    let writer = try SleeveDatabase.openForWriting(path: database.path)
    let insert = try writer.prepare(
      """
      INSERT INTO lint_suppressions (check_id, site, reason, actor, added_unix_ns)
      VALUES (?, ?, 'cell reuse, fixed in #42', 'oncall', 1)
      """)
    try insert.bind([.text(LintCheck.accumulation.id), .text(site)])
    try insert.run()
    let report = try LintScenario.lint(database)
    #expect(report.findings.map(\.check) == [.deadInteraction])
    #expect(report.suppressed.map(\.check) == [.accumulation])
    #expect(
      report.suppressed.first?.suppression
        == LintSuppressionMatch(reason: "cell reuse, fixed in #42", actor: "oncall"))
    #expect(report.count(atLeast: .error) == 0 && report.count(atLeast: .warning) == 1)
  }

  @Test(
    "a control's own finding, which now names a site, is suppressed by that site or by the control's name",
    arguments: [false, true])
  func controlNameStillSuppresses(bySite: Bool) async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { _, session in
      let help = Button(name: "checkout.help", observer: session)
      LintCheckTests.wireHelp(help)
      help.tap()
    }
    let dead = try #require(LintScenario.lint(database).findings.first)
    #expect(dead.check == .deadInteraction)
    let site = try #require(dead.site)
    let writer = try SleeveDatabase.openForWriting(path: database.path)
    let insert = try writer.prepare(
      """
      INSERT INTO lint_suppressions (check_id, site, reason, actor, added_unix_ns)
      VALUES (?, ?, 'help is coming', NULL, 1)
      """)
    try insert.bind([.text(LintCheck.deadInteraction.id), .text(bySite ? site : "checkout.help")])
    try insert.run()
    let report = try LintScenario.lint(database)
    #expect(report.findings.isEmpty)
    #expect(report.suppressed.map(\.check) == [.deadInteraction])
  }

  /// One handler with durations 1, 2, …, 100 ms in a file written row by row.
  static func hundredMilliseconds() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "slow")
    try fixture.handler(session: 1, number: 1, name: "render", control: "feed")
    try fixture.samples(
      session: 1, handler: 1, (1...100).map { FixtureDatabase.Sample(Int64($0) * 1_000_000) })
    return fixture
  }

  // numpy 2.2.6: np.percentile(np.arange(1, 101) * 1e6, 99) == 99010000.0 (method 'linear').
  @Test(
    "a stall's p99 is exact by the linear rank definition, even when it straddles the budget",
    arguments: [50_000_000, 99_005_000] as [Int64])
  func stallPercentileIsExact(budget: Int64) throws {
    let fixture = try Self.hundredMilliseconds()
    var options = LintOptions()
    options.frameBudgetNanoseconds = budget
    let report = try LintScenario.lint(try QueryDatabase(path: fixture.path), options: options)
    try #require(report.findings.count == 1)
    let evidence = LintScenario.evidence(report.findings[0])
    #expect(evidence["p99"] == "99010000ns")
    #expect(evidence["max"] == "100000000ns" && evidence["n"] == "100")
    #expect(report.findings[0].severity == .warning)
  }

  @Test("a handler over budget only at its maximum is a note without a p99")
  func maximumOnlyStallIsNote() throws {
    let fixture = try Self.hundredMilliseconds()
    var options = LintOptions()
    options.frameBudgetNanoseconds = 99_500_000  // above p99 (99.01 ms), below the max
    let report = try LintScenario.lint(try QueryDatabase(path: fixture.path), options: options)
    try #require(report.findings.count == 1)
    #expect(report.findings[0].severity == .note)
    #expect(LintScenario.evidence(report.findings[0])["p99"] == nil)
    #expect(LintScenario.evidence(report.findings[0])["over budget"] == "1")
  }

  @Test("a file from before schema 0004 is linted for what it can show, and says what it cannot")
  func olderFileIsCounted() throws {
    let fixture = try FixtureDatabase(migrations: 3)
    try fixture.session(1, name: "old")
    try fixture.handler(session: 1, number: 1, name: "render", control: "feed")
    try fixture.samples(session: 1, handler: 1, [FixtureDatabase.Sample(30_000_000)])
    let report = try LintScenario.lint(
      try QueryDatabase(path: fixture.path), options: LintOptions())
    #expect(report.sessionsWithoutInteractionData == 1)
    #expect(report.findings.map(\.check) == [.mainThreadStall])
  }
}

@Suite("Lint handler filters")
struct LintHandlerFilterTests {
  @Test("--control, --handler and --flag narrow findings to the handlers and controls they select")
  func handlerFiltersNarrowFindings() async throws {
    let directory = TemporaryDirectory()
    let database = try await LintScenario.record(directory) { screen, session in
      LintCheckTests.configure(screen.pay)
      LintCheckTests.configure(screen.pay)
      let help = Button(name: "checkout.help", observer: session)
      help.tap()
    }
    func checks(_ change: (inout QueryFilter) -> Void) throws -> [LintCheck] {
      var filter = QueryFilter()
      filter.session = .all
      change(&filter)
      return try database.lint(filter: filter).findings.map(\.check)
    }
    #expect(try checks { _ in } == [.accumulation, .deadInteraction])
    #expect(try checks { $0.control = "checkout.help" } == [.deadInteraction])
    #expect(try checks { $0.control = "checkout.pay" } == [.accumulation])
    let site = "SleeveQueryTests/LintCheckTests.swift:\(LintCheckTests.configureLine)"
    #expect(try checks { $0.handler = site } == [.accumulation])
    #expect(try checks { $0.flag = "no-such-flag" } == [])
  }
}
