import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

@MainActor
@Suite("Rollout end to end", .serialized)
struct RolloutTests {
  static let definition = FlagDefinition(
    key: "new-checkout", owner: "payments",
    thresholds: FlagThresholds(maxErrorRate: 0.05, minSamples: 10))

  /// Records one session whose pay button is gated by new-checkout, with flags read from the
  /// database; returns what ran.
  func recordSession(path: String, name: String) async throws -> [String] {
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: name)
    let flags = try DatabaseFlagProvider(path: path, definitions: [Self.definition])
    session.record(flags)
    let pay = Button(name: "checkout.pay", observer: session, flags: flags)
    var ran: [String] = []
    pay.on(.touchUpInside, id: "submit", flag: "new-checkout", fallback: { _ in ran.append("old") })
    {
      _ in ran.append("new")
    }
    for _ in 0..<20 { pay.sendActions(for: .touchUpInside) }
    try await session.end()
    return ran
  }

  @Test("after sleeve rollback, the next session runs the fallback, recorded as off / rolledBack")
  func rollbackLoop() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("rollout.sqlite")

    let unknown = await CLIRunner.run(["enable", "new-checkout", "--db", path])
    #expect(unknown.exit == 66)
    let enable = await CLIRunner.run([
      "enable", "new-checkout", "--db", path, "--create", "--actor", "ci",
    ])
    #expect(enable.exit == 0)
    #expect(enable.out == "Flag 'new-checkout' is now enabled, by ci.\n")

    let before = try await recordSession(path: path, name: "before")
    #expect(Set(before) == ["new"])

    let noReason = await CLIRunner.run(["rollback", "new-checkout", "--db", path])
    #expect(noReason.exit == 64)
    let rollback = await CLIRunner.run(
      [
        "rollback", "new-checkout", "--db", path, "--reason", "p99 over budget", "--actor",
        "oncall",
      ])
    #expect(rollback.exit == 0)

    let after = try await recordSession(path: path, name: "after")
    #expect(Set(after) == ["old"])

    let reader = try Connection(path: path, mode: .readOnly)
    let statement = try reader.prepare(
      """
      SELECT DISTINCT o.variant, s.name FROM outcomes o
      JOIN flag_states s ON s.code = o.flag_state WHERE o.id >> 32 = 2
      """)
    #expect(try statement.step())
    #expect(statement.int64(at: 0) == 0)
    #expect(statement.text(at: 1) == "rolledBack")
    #expect(try !statement.step())

    let flags = await CLIRunner.run(["flags", "--db", path, "--session", "all"])
    #expect(flags.out.contains("rolledBack (p99 over budget) by oncall [command line]"))
    #expect(flags.out.contains("enabled by ci [command line]"))
  }

  /// The rollouts page's example, run for real.
  func readmeRolloutExample(databasePath: String, session: RecordingSession) throws -> Button {
    func legacyPay() throws {}
    func newPay() throws {}
    // ROLLOUT:begin
    let newCheckout = FlagDefinition(
      key: "new-checkout", owner: "payments",
      thresholds: FlagThresholds(maxErrorRate: 0.02, maxP99: .milliseconds(5), minSamples: 50))
    let flags = try DatabaseFlagProvider(path: databasePath, definitions: [newCheckout])
    session.record(flags)  // records the definitions and the states served
    let pay = Button(name: "checkout.pay", flags: flags)
    pay.on(.touchUpInside, flag: "new-checkout", fallback: { _ in try legacyPay() }) { _ in
      try newPay()
    }
    // ROLLOUT:end
    return pay
  }

  @Test("the rollouts page's example runs, and the page shows exactly it")
  func readmeRolloutExampleRuns() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("readme.sqlite")
    let session = try await Recorder(path: path).startSession(name: "readme")
    let pay = try readmeRolloutExample(databasePath: path, session: session)
    session.attach(pay)
    pay.sendActions(for: .touchUpInside)
    try await session.end()
    let reader = try Connection(path: path, mode: .readOnly)
    #expect(try reader.scalarInt("SELECT variant FROM outcomes") == 0)
    #expect(try reader.scalarText("SELECT owner FROM flags") == "payments")
    let (tested, shown) = try ReadmeSnippet.pair(
      testFile: #filePath, marker: "ROLLOUT", heading: "## Rolling out behind flags",
      in: "docs/guide/rollouts.md")
    #expect(!tested.isEmpty)
    #expect(tested == shown)
  }

  @Test("check --apply rolls back the flags whose verdict is rollback, with the failing checks")
  func checkApplyRollsBack() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("apply.sqlite")
    #expect(try await CLIRunner.runChild(["demo", "--db", path, "--fires", "2000"]).exit == 0)
    #expect(await CLIRunner.run(["enable", "new-checkout", "--db", path]).exit == 0)
    let gate = await CLIRunner.run(["check", "--db", path, "--apply"])
    #expect(gate.exit == 1)
    #expect(gate.error.hasPrefix("Rolled back 'new-checkout': errorRate"))
    let ledger = FlagLedger(connection: try Connection(path: path, mode: .readOnly))
    let latest = try #require(try ledger.latestStates()["new-checkout"])
    #expect(latest.state == "rolledBack")
    #expect(latest.actor == "sleeve check")
    #expect(latest.reason?.hasPrefix("sleeve check: errorRate") == true)
  }

  @Test("the HTML report is one well-formed page with one SVG per chart and no scripts")
  func htmlReportIsSelfContained() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("html.sqlite")
    #expect(try await CLIRunner.runChild(["demo", "--db", path, "--fires", "1000"]).exit == 0)
    let out = directory.path("report.html")
    let result = await CLIRunner.run(["report", "--db", path, "--format", "html", "--out", out])
    #expect(result.exit == 0)
    let html = try String(contentsOfFile: out, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    #expect(html.hasSuffix("</html>\n"))
    #expect(!html.lowercased().contains("<script"))
    #expect(
      !html.contains("http://")
        || html.components(separatedBy: "http://").count - 1 == html.components(
          separatedBy: "xmlns=\"http://www.w3.org/2000/svg\""
        ).count - 1)
    // One flag: a latency distribution and a timeline; plus the error-rate chart.
    #expect(html.components(separatedBy: "<svg ").count - 1 == 3)
    for tag in ["section", "table", "figure", "svg", "p"] {
      let opened =
        html.components(separatedBy: "<\(tag)>").count
        + html.components(separatedBy: "<\(tag) ").count - 2
      let closed = html.components(separatedBy: "</\(tag)>").count - 1
      #expect(opened == closed, "<\(tag)> opened \(opened) closed \(closed)")
    }
  }
}
