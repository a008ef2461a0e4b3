import Foundation
import SleeveQuery
import SleeveTestSupport
import Testing

/// `sleeve demo` and `demo --history` hold one instance of each pitfall `sleeve lint` checks
/// for, so a newcomer who runs the demo and then lint sees every check fire once.
@Suite("demo, linted", .serialized)
struct DemoLintTests {
  /// Where each check's instance is, by the control its finding names: the visit's controls
  /// (`CheckoutVisit`) and the traffic's orphaned `track-purchase`.
  static let expectedControls: [LintCheck: String] = [
    .accumulation: "checkout.save-address",
    .silentReplacement: "checkout.close",
    .mixedWiring: "checkout.cancel",
    .orphanedHandler: "checkout.pay",
    .deadInteraction: "checkout.apple-pay",
    .rageInteraction: "checkout.apply-promo",
    .errorInteraction: "checkout.postcode",
    .mainThreadStall: "checkout.save-card",
    .nestingPressure: "checkout.express-shipping",
  ]

  /// Every finding on one line: check, control, handler and message, for failure messages.
  static func describe(_ report: LintReport) -> String {
    report.findings.map { "\($0.check.id) \($0.control) \($0.handler ?? "-"): \($0.message)" }
      .joined(separator: "\n")
  }

  /// Expects exactly one finding per check, at the check's own severity, on the control the
  /// demo put it on, in `sessions`, and nothing else: the demo's durations are simulated, so
  /// no machine's load adds a stall.
  static func expectOneOfEach(_ report: LintReport, sessions: [Int64]) {
    let findings = report.findings
    let byCheck = Dictionary(grouping: findings, by: \.check)
    for check in LintCheck.allCases {
      let found = byCheck[check] ?? []
      #expect(found.count == 1, "\(check.id): \(found.count)\n\(describe(report))")
      #expect(found.first?.control == expectedControls[check], "\(check.id)")
      #expect(found.first?.severity == check.severity, "\(check.id)")
      #expect(found.first?.sessions == sessions, "\(check.id)")
      #expect(found.first?.site?.hasPrefix("SleeveCLI/") == true, "\(check.id) names no site")
    }
    #expect(findings.count == LintCheck.allCases.count, "\(describe(report))")
    #expect(report.suppressed.isEmpty && report.sessionsWithoutInteractionData == 0)
  }

  @Test("sleeve demo's database, linted, has exactly one finding per check, where the demo put it")
  func demoHasOneOfEach() async throws {
    let (path, exit) = await RecordedDemo.shared.recorded()
    try #require(exit == 0)
    let report = try QueryDatabase(path: path).lint(filter: QueryFilter())
    Self.expectOneOfEach(report, sessions: [1])
    let lint = await CLIRunner.run(["lint", "--db", path, "--format", "json"])
    #expect(lint.exit == 1, "the two error-level checks fail lint: \(lint.error)")
  }

  @Test("demo --history: the branch's run has one finding per check, and main's runs none")
  func historyHasThemOnTheBranch() async throws {
    let (path, out) = await RecordedHistory.shared.recorded()
    #expect(out.contains(" sleeve lint --db \(path) --branch feature/faster-checkout\n"))
    let database = try QueryDatabase(path: path)
    var branch = QueryFilter()
    branch.session = .all
    branch.branch = "feature/faster-checkout"
    Self.expectOneOfEach(try database.lint(filter: branch), sessions: [15])
    var all = QueryFilter()
    all.session = .all
    Self.expectOneOfEach(try database.lint(filter: all), sessions: [15])
    var main = QueryFilter()
    main.session = .all
    main.branch = "main"
    let clean = try database.lint(filter: main)
    #expect(clean.sessions == 14)
    #expect(clean.findings.isEmpty, "\(Self.describe(clean))")
    // README's command: main's last run, linted clean (exit 0).
    let lint = await CLIRunner.run(["lint", "--db", path, "--branch", "main"])
    #expect(lint.exit == 0 && lint.out.contains("No active findings."), "\(lint.out)")
  }
}
