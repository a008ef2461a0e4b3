import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

@MainActor
@Suite("Recording round trip")
struct RoundTripTests {
  @Test("every event kind lands in its rows")
  func everyEventKindLandsInRows() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("round-trip.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(
      name: "RoundTrip", tags: ["ci"], environment: ["HOME", "SLEEVE_UNSET_VARIABLE"])
    let flags = InMemoryFlagProvider(
      ["new-pay": .enabled],
      definitions: [
        FlagDefinition(
          key: "new-pay", owner: "payments",
          thresholds: FlagThresholds(maxErrorRate: 0.05, maxP99: .milliseconds(50), minSamples: 10))
      ])
    session.record(flags)
    let pay = Button(name: "checkout.pay", flags: flags)
    pay.on(.touchUpInside, id: "validate") { _ in }
    session.attach(pay)
    pay.on(.touchUpInside, id: "charge") { _ in throw PaymentError.declined }
    pay.on(.touchUpInside, id: "gated", flag: "new-pay", fallback: { _ in }) { _ in }
    var owner: Owner? = Owner()
    pay.on(.touchUpInside, id: "owned", owner: owner!) { _, _ in }
    let slow = pay.on(.touchDown, id: "slow") { _ in try await Task.sleep(for: .seconds(30)) }
    owner = nil
    pay.tap()
    slow.cancel()
    await pay.waitUntilIdle()
    flags.set("new-pay", to: .rolledBack(reason: "errors"), actor: "oncall")
    pay.sendActions(for: .touchUpInside)
    pay.isEnabled = false
    pay.tap()
    try await session.end()

    let db = try Inspector(path: path)
    let sessionID = session.rowID
    #expect(
      try db.rows("SELECT name, tags_json, status, durability FROM sessions")
        == ["RoundTrip|[\"ci\"]|ended|batched"])
    #expect(try db.text("SELECT metadata_json FROM sessions")?.contains("\"HOME\"") == true)
    #expect(try db.text("SELECT metadata_json FROM sessions")?.contains("SLEEVE_UNSET") == false)
    #expect(try db.rows("SELECT name, kind FROM controls") == ["checkout.pay|Button"])
    #expect(
      try db.rows(
        "SELECT handler, events, flag_key, is_async, removal_reason FROM registrations ORDER BY id"
      ) == [
        "validate|64|NULL|0|NULL", "charge|64|NULL|0|NULL", "gated|64|new-pay|0|NULL",
        "owned|64|NULL|0|ownerReleased", "slow|1|NULL|1|cancelled",
      ])
    #expect(try db.int("SELECT min(id >> 32) FROM registrations") == sessionID)
    // tap: 3 fires; sendActions: 1; disabled tap: 3.
    #expect(try db.count("fires") == 7)
    let outcomes = try db.rows(
      """
      SELECT r.handler, s.name, coalesce(k.name, '-'), coalesce(o.variant, '-'),
             coalesce(fs.name, '-'), coalesce(o.error_type, '-')
      FROM outcomes o JOIN registrations r ON r.id = o.registration_id
      JOIN outcome_statuses s ON s.code = o.status
      LEFT JOIN skip_reasons k ON k.code = o.reason
      LEFT JOIN flag_states fs ON fs.code = o.flag_state
      ORDER BY o.id
      """)
    #expect(
      outcomes == [
        "validate|ok|-|-|-|-",
        "charge|failed|-|-|-|SleeveRecorderTests.RoundTripTests.PaymentError",
        "gated|ok|-|1|enabled|-",
        "owned|ownerReleased|-|-|-|-",
        "slow|cancelled|-|-|-|Swift.CancellationError",
        "validate|ok|-|-|-|-",
        "charge|failed|-|-|-|SleeveRecorderTests.RoundTripTests.PaymentError",
        "gated|ok|-|0|rolledBack|-",
        "validate|skipped|disabled|-|-|-",
        "charge|skipped|disabled|-|-|-",
        "gated|skipped|disabled|-|-|-",
      ])
    #expect(
      try db.rows("SELECT key, owner, max_error_rate, max_p99_ns, min_samples FROM flags")
        == ["new-pay|payments|0.05|50000000|10"])
    #expect(
      try db.rows("SELECT key, state, coalesce(reason, '-'), actor FROM flag_events ORDER BY id")
        == ["new-pay|enabled|-|initial", "new-pay|rolledBack|errors|oncall"])
  }

  final class Owner {}

  enum PaymentError: Error { case declined }
}
