import Foundation
import SleeveTestSupport
import Testing

/// `report --baseline` and `check --baseline` decide by the same gate: on the same selection
/// and baseline they give the same decision, the same checks and the same exit code, in
/// every report format.
@Suite("report and check agree", .serialized)
struct ReportGateAgreementTests {
  static func object(_ text: String, _ context: String) throws -> [String: Any] {
    try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(context)")
  }

  /// The checks as comparable lines, in the given order.
  static func lines(_ checks: [[String: Any]]) -> [String] {
    checks.map { check in
      ["subject", "metric", "verdict", "value", "threshold", "n", "pValue", "detail"]
        .map { "\(check[$0] ?? "-")" }.joined(separator: " | ")
    }
  }

  /// Runs `check` and `report` (JSON) on the same arguments and holds them equal; returns
  /// the decision and the report's checks against the baseline, in its order.
  static func agree(_ path: String, _ arguments: [String], seed: String) async throws
    -> (decision: String, checks: [[String: Any]])
  {
    let check = await CLIRunner.run(["check", "--db", path, "--format", "json"] + arguments)
    let report = await CLIRunner.run(["report", "--db", path, "--format", "json"] + arguments)
    #expect(report.exit == 0, "\(seed): \(report.error)")
    let gate = try object(check.out, "\(seed): \(check.error)")
    let judged = try object(report.out, "\(seed): \(report.error)")
    #expect(judged["decision"] as? String == gate["decision"] as? String, "\(seed)")
    #expect(judged["checkExitCode"] as? Int == Int(check.exit), "\(seed)")
    #expect(gate["exitCode"] as? Int == Int(check.exit), "\(seed)")
    let baseline = try #require(judged["baseline"] as? [String: Any], "\(seed)")
    let reported = try #require(baseline["checks"] as? [[String: Any]], "\(seed)")
    let checked = try #require(gate["baseline"] as? [[String: Any]], "\(seed)")
    #expect(lines(reported).sorted() == lines(checked).sorted(), "\(seed)")
    // What rolls back comes first, then what holds.
    let ranks = reported.map {
      ["breach": 0, "insufficient": 1, "pass": 2][$0["verdict"] as? String ?? ""] ?? 3
    }
    #expect(ranks == ranks.sorted(), "\(seed): \(ranks)")
    return (gate["decision"] as? String ?? "-", reported)
  }

  @Test("on demo --history report --baseline rolls back with check's checks, regressions first")
  func demoHistory() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    let (decision, reported) = try await Self.agree(
      path, ["--baseline", "branch=main"], seed: "demo")
    #expect(decision == "rollback")
    // Seeded failures: these two roll back wherever it runs (latency is measured, so a slow
    // machine may add a latency breach, also listed before every pass).
    let first = reported.prefix { $0["verdict"] as? String == "breach" }.map {
      "\($0["subject"] as? String ?? "") \($0["metric"] as? String ?? "")"
    }
    #expect(
      Set(first).isSuperset(of: [
        "checkout.pay/charge-card errorRateVersusBaseline",
        "checkout.gift-wrap/update-total newFailureTypes",
      ]), "\(first)")
    for format in ["markdown", "html"] {
      let result = await CLIRunner.run([
        "report", "--db", path, "--baseline", "branch=main", "--format", format,
      ])
      #expect(result.exit == 0, "\(format): \(result.error)")
      #expect(result.out.contains("sleeve check exits 1 (rollback): "), "\(format)")
      #expect(
        result.out.contains("checkout.pay/charge-card errorRateVersusBaseline, "), "\(format)")
      #expect(result.out.contains("Against the baseline"), "\(format)")
      #expect(!result.out.contains("promote</strong>"), "\(format)")
      let against = try #require(result.out.range(of: "Against the baseline"))
      let charge = try #require(
        result.out[against.upperBound...].range(of: "checkout.pay/charge-card"), "\(format)")
      let steady = try #require(
        result.out[against.upperBound...].range(of: "checkout.pay/validate-cart"), "\(format)")
      #expect(charge.lowerBound < steady.lowerBound, "\(format): the regression comes first")
    }
    // The whole history as the selection overlaps the baseline: both refuse it alike.
    let all = ["--session", "all", "--baseline", "branch=main"]
    let report = await CLIRunner.run(["report", "--db", path] + all)
    let check = await CLIRunner.run(["check", "--db", path] + all)
    #expect(report.exit == 64 && check.exit == 64)
    #expect(
      report.error.replacingOccurrences(of: "report", with: "check") == check.error,
      "\(report.error)")
  }

  @Test("on seeded histories report and check give the same decision, checks and exit code")
  func seededHistories() async throws {
    let changes: [SyntheticHistory.Change] = [
      .none, .none, .none, .none, .moreErrors(0.2), .newFailureType(count: 3), .new, .gone,
      .slower(3),
    ]
    var decisions: Set<String> = []
    for seed in UInt64(401)...UInt64(408) {
      var random = SeededGenerator(seed: seed)
      let handlers = (0..<3).map { index in
        SyntheticHistory.Handler(
          "h\(index)", perSession: [40, 120][Int.random(in: 0...1, using: &random)],
          change: changes[Int.random(in: 0..<changes.count, using: &random)],
          changedRuns: Bool.random(using: &random) ? [0] : nil)
      }
      let runs = Int.random(in: 1...3, using: &random)
      let history = try SyntheticHistory(
        seed: seed, baselineRuns: 4, candidateRuns: runs, handlers: handlers)
      let limit = String(Int.random(in: 1...2, using: &random))
      decisions.insert(
        try await Self.agree(
          history.fixture.path,
          [
            "--baseline", "branch=main", "--branch", "feature", "--last", String(runs),
            "--failure-limit", limit,
          ],
          seed:
            "seed \(seed), \(handlers.map { "\($0.name) \($0.change)" }), failure limit \(limit)"
        ).decision)
    }
    #expect(decisions == ["promote", "hold", "rollback"], "the seeds reach every decision")
  }
}
