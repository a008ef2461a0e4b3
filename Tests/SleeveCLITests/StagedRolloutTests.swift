import Foundation
import SleeveCore
import SleeveQuery
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// Whole staged rollouts driven by `sleeve check --apply`, one seeded session per run of the
/// gate: each session reads the flag's state from the file, as an app would, and the gate
/// advances, holds or rolls back.
@MainActor
@Suite("Staged rollouts through check --apply", .serialized)
struct StagedRolloutTests {
  static let stages: [Double] = [1, 5, 25, 50, 100]

  static func definition() throws -> FlagDefinition {
    FlagDefinition(
      key: "new-checkout", owner: "payments",
      thresholds: FlagThresholds(maxErrorRate: 0.10, minSamples: 20),
      rollout: try RolloutPlan(unit: .key("user"), stages: stages, minSamples: 20),
      // Measured durations are the machine's, not the test's: latency reports, never decides.
      severities: [.latencyVersusOff: .advisory])
  }

  /// Records one session of `users` seeded users, one fire each. The new code fails with
  /// `failureRate(share)` at the share the flag serves (a defect that shows only under load),
  /// the old code with 1%.
  func recordSession(
    path: String, index: Int, users: Int, random: inout SeededGenerator,
    failureRate: @escaping (RolloutPercentage) -> Double
  ) async throws {
    let flags = try DatabaseFlagProvider(path: path, definitions: [try Self.definition()])
    let share =
      flags.state(of: "new-checkout")?.servedPercentage ?? RolloutPercentage(basisPoints: 0)!
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "stage run \(index)")
    session.record(flags)
    let pay = Button(name: "checkout.pay", observer: session, flags: flags)
    let draw = Draw()
    let newRate = failureRate(share)
    pay.on(
      .touchUpInside, id: "submit", flag: "new-checkout",
      fallback: { _ in if draw.value < 0.01 { throw TestFailure("old path failed") } }
    ) { _ in
      if draw.value < newRate { throw TestFailure("new path failed") }
    }
    for _ in 0..<users {
      flags.setUnitKey("user-\(random.next() % 1_000_000_000)", named: "user")
      draw.value = Double(random.next() % 1_000_000) / 1_000_000
      pay.sendActions(for: .touchUpInside)
    }
    try await session.end()
  }

  /// Drives the rollout from 1% until it is enabled or rolled back (at most `runs` gates);
  /// returns the share served at each gate and the last state.
  func drive(
    seed: UInt64, in directory: TemporaryDirectory = TemporaryDirectory(),
    failureRate: @escaping (RolloutPercentage) -> Double
  ) async throws -> (shares: [String], exits: [Int32], final: FlagLedger.Change) {
    let path = directory.path("staged.sqlite")
    let start = await CLIRunner.run([
      "rollout", "new-checkout", "--percent", "1", "--db", path, "--create", "--actor", "owner",
    ])
    #expect(start.exit == 0, "\(start.error)")
    var random = SeededGenerator(seed: seed)
    var shares: [String] = []
    var exits: [Int32] = []
    for index in 0..<24 {
      try await recordSession(
        path: path, index: index, users: 1_200, random: &random, failureRate: failureRate)
      let gate = await CLIRunner.run([
        "check", "--db", path, "--session", "all", "--flag", "new-checkout", "--apply",
      ])
      // Judged at the share it serves, on per-share cohorts (raw rows): the header says so
      // beside the summaries the rest was answered from.
      #expect(gate.out.contains("Answered from summaries"), "\(gate.out)")
      #expect(gate.out.contains(AnswerPlan.stagesSentence), "\(gate.out)")
      let ledger = FlagLedger(connection: try Connection(path: path, mode: .readOnly))
      let latest = try #require(try ledger.latestStates()["new-checkout"])
      exits.append(gate.exit)
      shares.append(
        latest.rolloutBasisPoints.map { RolloutPercentage(basisPoints: $0)!.description }
          ?? latest.state)
      if latest.state != RecordCodes.FlagChangeState.rollingOut.name {
        return (shares, exits, latest)
      }
    }
    let ledger = FlagLedger(connection: try Connection(path: path, mode: .readOnly))
    return (shares, exits, try #require(try ledger.latestStates()["new-checkout"]))
  }

  @Test(
    "a healthy rollout ramps through every stage to enabled, each step recorded by sleeve check")
  func healthyRolloutRampsToEnabled() async throws {
    let seed: UInt64 = 0x5eed_1611
    let (shares, exits, final) = try await drive(seed: seed) { _ in 0.01 }
    #expect(final.state == "enabled", "seed \(seed): \(shares)")
    #expect(final.actor == "sleeve check")
    #expect(final.reason?.hasPrefix("sleeve check: last stage passed") == true)
    // Every stage was served, in order, and none was skipped.
    var visited: [String] = []
    for share in shares where visited.last != share { visited.append(share) }
    #expect(
      visited == ["1%", "5%", "25%", "50%", "enabled"], "seed \(seed): \(shares), exits \(exits)")
    #expect(!exits.contains(1), "seed \(seed): a healthy rollout never rolls back: \(exits)")
  }

  /// The rollouts page's percentage-rollout example, run for real.
  func readmeStagedExample(databasePath: String, signedInUserID: String) throws
    -> DatabaseFlagProvider
  {
    // STAGED:begin
    let newCheckout = FlagDefinition(
      key: "new-checkout", owner: "payments",
      thresholds: FlagThresholds(maxErrorRate: 0.02, minSamples: 50),
      rollout: try RolloutPlan(unit: .key("user"), stages: [1, 5, 25, 50, 100], minSamples: 200),
      severities: [.latencyVersusOff: .advisory])
    let flags = try DatabaseFlagProvider(path: databasePath, definitions: [newCheckout])
    flags.setUnitKey(signedInUserID, named: "user")  // the unit this flag is assigned by
    // STAGED:end
    return flags
  }

  @Test("the rollouts page's percentage-rollout example runs, and the page shows exactly it")
  func readmeStagedExampleRuns() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("readme.sqlite")
    #expect(
      await CLIRunner.run(["rollout", "new-checkout", "--percent", "25", "--db", path, "--create"])
        .exit == 0)
    let flags = try readmeStagedExample(databasePath: path, signedInUserID: "user-42")
    #expect(
      flags.state(of: "new-checkout")
        == .rollingOut(percent: RolloutPercentage(basisPoints: 2_500)!))
    let session = try await Recorder(path: path).startSession(name: "readme")
    session.record(flags)
    let pay = Button(name: "checkout.pay", observer: session, flags: flags)
    var ran: [String] = []
    pay.on(.touchUpInside, flag: "new-checkout", fallback: { _ in ran.append("off") }) { _ in
      ran.append("on")
    }
    pay.sendActions(for: .touchUpInside)
    try await session.end()
    // The rollouts page's script line gives user-42's assignment at 25%: bucket 4856, so off.
    #expect(ran == ["off"])
    let (tested, shown) = try ReadmeSnippet.pair(
      testFile: #filePath, marker: "STAGED",
      heading: "### Percentage rollouts, stages, and a gate you can ask again and again",
      in: "docs/guide/rollouts.md")
    #expect(tested == shown)
  }

  @Test("flags and report show each stage's concurrent cohorts, and the timeline its shares")
  func stagesAreShown() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("staged.sqlite")
    _ = try await drive(seed: 0x5eed_1613, in: directory) { share in
      share.basisPoints >= 2_500 ? 0.40 : 0.01
    }
    let flags = await CLIRunner.run(["flags", "--db", path, "--session", "all", "--wide"])
    #expect(flags.exit == 0)
    #expect(
      flags.out.contains("new-checkout: Rollout by key:user · stages 1% (20 per cohort) → 5%"))
    let rows = flags.out.split(separator: "\n").filter {
      $0.hasPrefix("1% ") || $0.hasPrefix("5% ") || $0.hasPrefix("25% ")
    }
    #expect(rows.count == 3, "\(flags.out)")
    // The per-share cohorts are raw rows' even when the rest is answered from summaries, and
    // the header says so: every figure under the plan it came from.
    #expect(flags.out.contains("Answered from summaries"), "\(flags.out)")
    #expect(flags.out.contains(AnswerPlan.stagesSentence), "\(flags.out)")
    #expect(flags.out.contains("rollingOut 25% (sleeve check: stage passed, now 25%"))
    let json = await CLIRunner.run(["flags", "--db", path, "--session", "all", "--format", "json"])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let flag = try #require((object["flags"] as? [[String: Any]])?.first)
    let rollout = try #require(flag["rollout"] as? [String: Any])
    #expect(rollout["unit"] as? String == "key:user")
    #expect(rollout["cohortsFrom"] as? String == "raw rows")
    #expect(object["answeredFrom"] as? String == "summaries")
    let cohorts = try #require(rollout["cohorts"] as? [[String: Any]])
    #expect(cohorts.compactMap { $0["percent"] as? Double } == [1, 5, 25])
    let quarter = try #require(cohorts.last)
    let on = try #require(quarter["on"] as? [String: Any])
    let off = try #require(quarter["off"] as? [String: Any])
    // Units of a key rollout are users: one fire each here, so units equal outcomes.
    #expect((on["units"] as? Int).map { $0 > 0 } == true)
    #expect(on["units"] as? Int == on["outcomes"] as? Int)
    #expect((on["units"] as? Int ?? 0) + (off["units"] as? Int ?? 0) == 1_200)
    let history = try #require(flag["history"] as? [[String: Any]])
    #expect(history.compactMap { $0["percent"] as? Double }.contains(25))
    let report = await CLIRunner.run([
      "report", "--db", path, "--session", "all", "--format", "markdown",
    ])
    #expect(report.out.contains("| share | on units | on n |"))
    #expect(report.out.contains("- ") && report.out.contains("rollingOut 5% (sleeve check"))
    let diff = await CLIRunner.run([
      "diff", "--db", path, "--baseline", "session=1", "--candidate", "session=4",
    ])
    #expect(diff.exit == 0, "\(diff.error)")
    #expect(diff.out.contains("Rollout of new-checkout, baseline:\nshare"), "\(diff.out)")
    #expect(diff.out.contains("Answered from summaries"), "\(diff.out)")
    #expect(diff.out.contains(AnswerPlan.stagesSentence), "\(diff.out)")
    #expect(diff.out.contains("Rollout of new-checkout, candidate:\nshare"), "\(diff.out)")
    let diffJSON = await CLIRunner.run([
      "diff", "--db", path, "--baseline", "session=1", "--candidate", "session=4", "--format",
      "json",
    ])
    let sides = try #require(
      (try JSONSerialization.jsonObject(with: Data(diffJSON.out.utf8)) as? [String: Any])?[
        "rollouts"] as? [String: Any])
    let candidate = try #require(
      (sides["candidate"] as? [String: Any])?["new-checkout"] as? [[String: Any]])
    #expect(candidate.compactMap { $0["percent"] as? Double } == [25])
    let html = await CLIRunner.run(["report", "--db", path, "--session", "all", "--format", "html"])
    // The timeline fills each rollout's band to its share: a quarter of 24 px at 25%.
    #expect(html.out.contains("height=\"6.0\" fill="), "the 25% band is 6 of 24 px high")
  }

  @Test("a defect that shows at 25% passes 1% and 5%, then rolls back at 25%")
  func defectRollsBackAtTwentyFivePercent() async throws {
    let seed: UInt64 = 0x5eed_1612
    let (shares, exits, final) = try await drive(seed: seed) { share in
      share.basisPoints >= 2_500 ? 0.40 : 0.01
    }
    #expect(final.state == "rolledBack", "seed \(seed): \(shares)")
    #expect(final.actor == "sleeve check")
    var visited: [String] = []
    for share in shares where visited.last != share { visited.append(share) }
    #expect(
      visited == ["1%", "5%", "25%", "rolledBack"], "seed \(seed): \(shares), exits \(exits)")
    #expect(exits.last == 1)
    #expect(final.reason?.contains("errorRate") == true, "\(final.reason ?? "")")
  }
}

extension StagedRolloutTests {
  @Test("right after rollout --percent 1, flags says nothing ran at any share, with no empty table")
  func freshRolloutShowsNoEmptyTable() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("fresh.sqlite")
    let start = await CLIRunner.run([
      "rollout", "new-checkout", "--percent", "1", "--db", path, "--create", "--actor", "owner",
    ])
    #expect(start.exit == 0, "\(start.error)")
    var random = SeededGenerator(seed: 0x5eed_1614)
    try await recordSession(path: path, index: 0, users: 0, random: &random) { _ in 0 }
    for format in ["table", "markdown"] {
      let flags = await CLIRunner.run([
        "flags", "--db", path, "--session", "all", "--format", format,
      ])
      #expect(flags.exit == 0, "\(flags.error)")
      #expect(flags.out.contains("serving 1%:\nNo outcomes at any share yet.\n"), "\(flags.out)")
      #expect(!flags.out.contains("on units"), "\(format): \(flags.out)")
    }
    let report = await CLIRunner.run([
      "report", "--db", path, "--session", "all", "--format", "markdown",
    ])
    #expect(report.out.contains("No outcomes at any share yet."), "\(report.out)")
    #expect(!report.out.contains("| share | on units |"), "\(report.out)")
  }

  @Test("check --apply on a flag already rolled back records nothing more, and still exits 1")
  func rolledBackFlagIsNotRolledBackAgain() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("staged.sqlite")
    let seed: UInt64 = 0x5eed_1612
    let (shares, _, final) = try await drive(seed: seed, in: directory) { share in
      share.basisPoints >= 2_500 ? 0.40 : 0.01
    }
    #expect(final.state == "rolledBack", "seed \(seed): \(shares)")
    func rollbacks() throws -> Int64? {
      try Connection(path: path, mode: .readOnly).scalarInt(
        "SELECT count(*) FROM flag_events WHERE state = 'rolledBack'")
    }
    #expect(try rollbacks() == 1)
    for _ in 0..<2 {
      let again = await CLIRunner.run([
        "check", "--db", path, "--session", "all", "--flag", "new-checkout", "--apply",
      ])
      #expect(again.exit == 1, "\(again.error)")
      #expect(!again.error.contains("Rolled back"), "\(again.error)")
    }
    #expect(try rollbacks() == 1, "seed \(seed)")
  }
}

/// The error a seeded handler throws.
private struct TestFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The seeded draw of the fire in progress, read by the handlers.
@MainActor
private final class Draw {
  var value = 0.0
}
