import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// Forwards every event to a session but does not implement `handlerSucceeded`, so plain
/// successes reach the session the slow way: as a `HandlerOutcome` through `handlerFinished`.
final class SlowPathForwarder: DispatchObserver {
  let session: RecordingSession
  init(_ session: RecordingSession) { self.session = session }

  func registered(_ registration: RegistrationInfo) { session.registered(registration) }
  func removed(_ removal: RemovalInfo) { session.removed(removal) }
  func fireBegan(_ fire: FireInfo) { session.fireBegan(fire) }
  func handlerFinished(_ outcome: HandlerOutcome) { session.handlerFinished(outcome) }
  func fireEnded(_ fire: FireInfo, atNanoseconds: Int64) {
    session.fireEnded(fire, atNanoseconds: atNanoseconds)
  }
  func interactionEnded(_ interaction: InteractionInfo) { session.interactionEnded(interaction) }
}

@MainActor
@Suite("Recording a plain success")
struct SuccessFastPathTests {
  @Test("a plain handler's success writes the row its HandlerOutcome would write, in its place")
  func fastPathWritesTheSameRow() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("fast.sqlite")
    let recorder = try await Recorder(path: path)
    var sessions: [Int64] = []
    for slow in [false, true] {
      let session = try await recorder.startSession(name: slow ? "slow" : "fast")
      let observer: any DispatchObserver = slow ? SlowPathForwarder(session) : session
      let button = Button(name: "pay", observer: observer)
      let inner = Button(name: "total", observer: observer)
      inner.on(.valueChanged, id: "nested") { _ in }
      button.on(.touchUpInside, id: "plain") { _ in }
      button.on(.touchUpInside, id: "nests") { _ in inner.sendActions(for: .valueChanged) }
      button.on(.touchUpInside, id: "fails") { _ in throw CancellationError() }
      button.on(.touchUpInside, id: "after") { _ in }
      button.tap()
      button.sendActions(for: .touchUpInside)
      try await session.end()
      sessions.append(session.rowID)
    }
    let db = try Inspector(path: path)
    func rows(_ session: Int64) throws -> [String] {
      try db.rows(
        """
        SELECT r.handler, o.status, o.reason, o.variant, o.flag_state, o.is_async,
               o.error_type IS NULL, o.started_ns >= f.at_ns, o.duration_ns >= 0
        FROM outcomes o JOIN registrations r ON r.id = o.registration_id
        JOIN fires f ON f.id = o.fire_id
        WHERE o.id >> 32 = \(session) ORDER BY o.id
        """)
    }
    let fast = try rows(sessions[0])
    // Each fire: rows in the order the handlers ended (the nested fire's handler ends
    // inside `nests`).
    #expect(fast.count == 10)
    #expect(
      fast.map { $0.prefix(while: { $0 != "|" }) }.prefix(5)
        == ["plain", "nested", "nests", "fails", "after"])
    #expect(fast.first == "plain|0|NULL|NULL|NULL|0|1|1|1")
    #expect(fast == (try rows(sessions[1])))
  }
}
