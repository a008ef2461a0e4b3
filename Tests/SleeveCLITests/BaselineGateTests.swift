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

  @Test("a breach found in one of two candidate sessions shows that session's own figures")
  func breachShowsTheSession() async throws {
    let history = try SyntheticHistory(
      seed: 35, baselineRuns: 6, candidateRuns: 2,
      handlers: [.init("errors", errorRate: 0.02, change: .moreErrors(0.3), changedRuns: [1])])
    let result = await Self.check(
      history, ["--branch", "feature", "--last", "2", "--format", "json"])
    #expect(result.exit == 1, "seed 35: \(result.out)")
    let errors = try #require(
      try Self.baselineChecks(result).first { $0["metric"] as? String == "errorRateVersusBaseline" }
    )
    let detail = try #require(errors["detail"] as? String)
    #expect(errors["verdict"] as? String == "breach")
    // Session 8 alone: 200 invocations at a 30% error rate, against the baseline's 2%.
    #expect((errors["value"] as? Double ?? 0) > 0.2, "\(errors)")
    #expect((errors["pValue"] as? Double ?? 1) < 0.05, "\(errors)")
    #expect(errors["n"] as? Int == 200)
    #expect(
      detail.hasPrefix(
        "regressed in 1 of 2 candidate sessions; figures of session 8, where it regressed most; "
          + "pooled over the 2 candidate sessions: "), "\(detail)")
    #expect(!detail.contains("; ;") && !detail.hasSuffix("; "), "\(detail)")
  }

  @Test(
    "an advisory row has no threshold, the n of the side that ran, and a method without a stray separator"
  )
  func advisoryRowReads() async throws {
    let history = try SyntheticHistory(
      seed: 36, baselineRuns: 4,
      handlers: [.init("steady"), .init("brandNew", perSession: 40, change: .new)])
    let result = await Self.check(history, ["--format", "json"])
    let advisory = try #require(
      try Self.baselineChecks(result).first { $0["verdict"] as? String == "advisory" })
    #expect(advisory["threshold"] is NSNull, "\(advisory)")
    #expect(advisory["n"] as? Int == 40)
    let method = try #require(advisory["method"] as? String)
    #expect(!method.hasPrefix(";"), "\(method)")
    let table = await Self.check(history, ["--wide"])
    let line = try #require(table.out.split(separator: "\n").first { $0.contains("brandNew") })
    // value, then no threshold, then the candidate's n.
    #expect(line.range(of: #"%\s+-\s+40\s"#, options: .regularExpression) != nil, "\(line)")
  }
}
