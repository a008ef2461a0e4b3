import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// What a session records of a percentage rollout: each gated outcome's served share and
/// assignment, the rollout state changes, the definition's plan; and that a merge and the
/// flag provider carry them whole.
@MainActor
@Suite("Recording percentage rollouts")
struct RolloutRecordingTests {
  static let plan = try! RolloutPlan(unit: .key("user"), salt: "s", stages: [1, 5, 25, 100])
  static let definition = FlagDefinition(
    key: "new-checkout", owner: "payments", rollout: plan,
    severities: [.latencyVersusOff: .advisory])

  /// Records one session: 40 users at 25%, then one fire with no user.
  func record(path: String) async throws {
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "rollout")
    let flags = InMemoryFlagProvider(
      ["new-checkout": .rollingOut(percent: RolloutPercentage(basisPoints: 2_500)!)],
      definitions: [Self.definition])
    session.record(flags)
    let pay = Button(name: "checkout.pay", observer: session, flags: flags)
    pay.on(.touchUpInside, id: "submit", flag: "new-checkout", fallback: { _ in }) { _ in }
    for user in 0..<40 {
      flags.setUnitKey("user-\(user)", named: "user")
      pay.sendActions(for: .touchUpInside)
    }
    flags.setUnitKey(nil, named: "user")
    pay.sendActions(for: .touchUpInside)
    flags.set(
      "new-checkout", to: .rollingOut(percent: RolloutPercentage(basisPoints: 500)!),
      actor: "tester")
    try await session.end()
  }

  @Test(
    "each gated outcome records its share and its unit's assignment, consistent with its variant")
  func outcomesRecordShareAndAssignment() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("rollout.sqlite")
    try await record(path: path)
    let inspector = try Inspector(path: path)
    let rows = try inspector.rows(
      """
      SELECT o.variant, o.flag_state, r.basis_points, r.assignment FROM outcomes o
      JOIN outcome_rollouts r ON r.outcome_id = o.id ORDER BY o.id
      """)
    #expect(rows.count == 41)
    #expect(try inspector.count("outcomes") == 41)
    let quarter = RolloutPercentage(basisPoints: 2_500)!
    for (user, row) in rows.prefix(40).enumerated() {
      let hash = RolloutHash.hash(key: "new-checkout", salt: "s", unit: .text("user-\(user)"))
      let on = RolloutHash.isOn(hash, at: quarter)
      #expect(row == "\(on ? 1 : 0)|\(on ? 1 : 2)|2500|\(Int64(bitPattern: hash))", "user-\(user)")
    }
    #expect(rows.last == "0|2|2500|NULL", "a fire without its unit is off and unassigned")
  }

  @Test("a rollout change is stored as disabled plus its share; the provider reads it back whole")
  func stateAndPlanRoundTrip() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("rollout.sqlite")
    try await record(path: path)
    let inspector = try Inspector(path: path)
    // What a binary older than rollouts reads: disabled, the safe side.
    #expect(
      try inspector.rows(
        """
        SELECT e.state, r.basis_points FROM flag_events e
        LEFT JOIN flag_rollouts r ON r.flag_event_id = e.id ORDER BY e.id
        """) == ["disabled|2500", "disabled|500"])
    let flags = try DatabaseFlagProvider(path: path)
    #expect(
      flags.state(of: "new-checkout") == .rollingOut(percent: RolloutPercentage(basisPoints: 500)!))
    let read = try #require(flags.definition(of: "new-checkout"))
    #expect(read.rollout == Self.plan)
    #expect(read.severity(of: .latencyVersusOff) == .advisory)
    #expect(read.severity(of: .errorRate) == .critical)
  }

  @Test("the file's provider assigns key units by the hash, its unit keys surviving a refresh")
  func databaseProviderAssignsByTheHash() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("rollout.sqlite")
    try await record(path: path)  // leaves new-checkout rolling out at 5%, plan recorded
    let flags = try DatabaseFlagProvider(path: path)
    let button = Button(name: "checkout.pay", flags: flags)
    var ran: [String] = []
    button.on(.touchUpInside, flag: "new-checkout", fallback: { _ in ran.append("off") }) { _ in
      ran.append("on")
    }
    let five = RolloutPercentage(basisPoints: 500)!
    var expected: [String] = []
    for user in 0..<200 {
      flags.setUnitKey("user-\(user)", named: "user")
      if user == 100 { try flags.refresh() }  // a refresh keeps the key and rehashes
      button.sendActions(for: .touchUpInside)
      let hash = RolloutHash.hash(key: "new-checkout", salt: "s", unit: .text("user-\(user)"))
      expected.append(RolloutHash.isOn(hash, at: five) ? "on" : "off")
    }
    #expect(ran == expected)
    #expect(expected.contains("on") && expected.contains("off"))
    flags.setUnitKey(nil, named: "user")
    button.sendActions(for: .touchUpInside)
    #expect(ran.last == "off", "a cleared key is unassigned, so off")
  }

  @Test("the command line's rollout is read back by the provider; a damaged share is refused")
  func ledgerRolloutRoundTrip() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("flags.sqlite")
    let writer = try SleeveDatabase.openForWriting(path: path)
    let ledger = FlagLedger(connection: writer)
    try ledger.record(
      .init(
        key: "f", state: "rollingOut", reason: "stage 2", actor: "me", rolloutBasisPoints: 1_250))
    let flags = try DatabaseFlagProvider(path: path)
    #expect(flags.state(of: "f") == .rollingOut(percent: RolloutPercentage(basisPoints: 1_250)!))
    try writer.execute("PRAGMA ignore_check_constraints = 1")
    try writer.execute("UPDATE flag_rollouts SET basis_points = 20000")
    let error = try #require(throws: RecorderError.self) { try flags.refresh() }
    #expect(error.description.contains("rollout share 20000"), "\(error)")
  }

  @Test("a merge copies every rollout row, its shares following the copied flag events")
  func mergeCarriesRollouts() async throws {
    let directory = TemporaryDirectory()
    let input = directory.path("input.sqlite")
    try await record(path: input)
    let output = directory.path("output.sqlite")
    // The output already has a flag event of its own, so copied events get new ids.
    let target = try SleeveDatabase.openForWriting(path: output)
    try FlagLedger(connection: target).record(
      .init(key: "other", state: "enabled", reason: nil, actor: nil))
    _ = try SessionMerger(target: target).merge(path: input, includeUnterminated: false)
    let before = try Inspector(path: input)
    let after = try Inspector(path: output)
    let outcomeRows = "SELECT basis_points, assignment FROM outcome_rollouts ORDER BY outcome_id"
    #expect(try after.rows(outcomeRows) == before.rows(outcomeRows))
    let events = """
      SELECT e.key, e.state, r.basis_points FROM flag_events e
      LEFT JOIN flag_rollouts r ON r.flag_event_id = e.id WHERE e.session_id IS NOT NULL
      ORDER BY e.id
      """
    #expect(try after.rows(events) == before.rows(events))
    let plans = """
      SELECT p.key, p.unit, p.salt, (SELECT group_concat(basis_points) FROM flag_rollout_stages),
        (SELECT group_concat(check_name || '=' || severity) FROM flag_check_severities)
      FROM flag_rollout_plans p
      """
    #expect(try after.rows(plans) == before.rows(plans))
    #expect(
      try after.rows(plans) == [
        "new-checkout|key:user|s|100,500,2500,10000|latencyVersusOff=advisory"
      ])
  }
}
