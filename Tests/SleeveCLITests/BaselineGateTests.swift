import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve check --baseline`: the gate against a baseline, with Argo's failure limit.
@Suite("check --baseline")
struct BaselineGateTests {
  static func check(_ history: SyntheticHistory, _ extra: [String]) async -> CLIRunner.Result {
    await CLIRunner.run(
      ["check", "--db", history.fixture.path, "--baseline", "branch=main"] + extra)
  }

  static func baselineChecks(_ result: CLIRunner.Result) throws -> [[String: Any]] {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any],
      "\(result.error)")
    return try #require(object["baseline"] as? [[String: Any]])
  }

  @Test("a regression rolls back (1), an unchanged candidate promotes (0)")
  func rollbackAndPromote() async throws {
    let regressed = try SyntheticHistory(
      seed: 31, baselineRuns: 6,
      handlers: [.init("steady"), .init("errors", change: .moreErrors(0.2))])
    #expect(await Self.check(regressed, []).exit == 1)
    let steady = try SyntheticHistory(seed: 31, baselineRuns: 6, handlers: [.init("steady")])
    let result = await Self.check(steady, [])
    #expect(result.exit == 0, "\(result.out)")
  }

  @Test(
    "a regression found in fewer candidate sessions than --failure-limit holds (2), says how many")
  func failureLimit() async throws {
    let history = try SyntheticHistory(
      seed: 32, baselineRuns: 6, candidateRuns: 3,
      handlers: [.init("errors", change: .moreErrors(0.25), changedRuns: [2])])
    let candidate = ["--branch", "feature", "--last", "3"]
    let once = await Self.check(history, candidate + ["--failure-limit", "2", "--format", "json"])
    #expect(once.exit == 2)
    let errors = try Self.baselineChecks(once).first {
      $0["metric"] as? String == "errorRateVersusBaseline"
    }
    #expect(
      (errors?["detail"] as? String)?.hasPrefix("regressed in 1 of 3 candidate sessions") == true)
    #expect(await Self.check(history, candidate + ["--failure-limit", "1"]).exit == 1)
    let short = await Self.check(history, ["--branch", "feature", "--failure-limit", "2"])
    #expect(short.exit == 2)
    #expect(
      short.error.hasPrefix(
        "Note: --failure-limit 2 but the candidate has 1 session: a regression can hold the gate, never roll it back"
      ))
  }

  @Test("a handler with no baseline is advisory: listed, not counted, with why")
  func newHandlerIsAdvisory() async throws {
    let history = try SyntheticHistory(
      seed: 33, baselineRuns: 6, handlers: [.init("steady"), .init("brandNew", change: .new)])
    let result = await Self.check(history, ["--format", "json"])
    #expect(result.exit == 0)
    let advisory = try Self.baselineChecks(result).filter { $0["verdict"] as? String == "advisory" }
    #expect(advisory.count == 1)
    #expect(advisory.first?["subject"] as? String == "CheckoutView/brandNew")
    #expect(advisory.first?["detail"] as? String == "not counted: no baseline session ran it")
  }

  @Test("baseline-only options without --baseline are usage errors (64)")
  func optionsNeedBaseline() async throws {
    let history = try SyntheticHistory(seed: 34, baselineRuns: 2, handlers: [.init("steady")])
    let result = await CLIRunner.run([
      "check", "--db", history.fixture.path, "--failure-limit", "2",
    ])
    #expect(result.exit == 64)
    #expect(
      result.error.hasPrefix("Error: --failure-limit applies to --baseline; give --baseline too\n"))
  }
}
