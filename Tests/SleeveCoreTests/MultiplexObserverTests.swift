import SleeveCore
import Testing

@MainActor
@Suite("MultiplexObserver")
struct MultiplexObserverTests {
  @Test("every event reaches every observer, in order, the same as with each alone")
  func fanOut() {
    let alone = RecordingObserver()
    let first = RecordingObserver()
    let second = RecordingObserver()
    for observer in [alone as any DispatchObserver, MultiplexObserver([first, second])] {
      let flags = InMemoryFlagProvider(["f": .enabled])
      let button = Button(name: "b", observer: observer, flags: flags)
      flags.addObserver(observer)
      button.on(.touchUpInside, id: "ok") { _ in }
      let failing = button.on(.touchUpInside, id: "fails") { _ in throw CancellationError() }
      button.on(.touchUpInside, flag: "f", fallback: { _ in }) { _ in }
      button.tap()
      failing.cancel()
      flags.set("f", to: .disabled)
      button.tap()
    }
    #expect(!alone.lines.isEmpty)
    #expect(first.lines == alone.lines)
    #expect(second.lines == first.lines)
    #expect(first.statuses == alone.statuses)
    #expect(first.flagChanges.count == 1 && second.flagChanges.count == 1)
  }

  @Test(
    "a plain handler's success reaches a session observer's handlerSucceeded, else handlerFinished")
  func successTakesTheFastPathWhereImplemented() {
    let slow = RecordingObserver()
    let fast = SuccessCounter()
    let button = Button(name: "b", observer: MultiplexObserver([slow, fast]))
    let owner = Counter()
    button.on(.touchUpInside, id: "plain") { _ in }
    button.on(.touchUpInside, id: "owned", owner: owner) { _, _ in }
    button.on(.touchUpInside, id: "fails") { _ in throw CancellationError() }
    button.sendActions(for: .touchUpInside)
    #expect(slow.statuses == ["plain:ok", "owned:ok", "fails:failed"])
    #expect(slow.outcomes.first?.isAsync == false)
    #expect(slow.outcomes.first.map { $0.durationNanoseconds >= 0 } == true)
    #expect(fast.succeeded == 1, "only the plain handler's ok takes the fast path")
    #expect(fast.finished == ["ok", "failed"])
  }
}

/// Counts the fast-path successes and the outcomes that still come as values.
final class SuccessCounter: SessionDispatchObserver {
  private let counts = Locked((succeeded: 0, finished: [String]()))
  var succeeded: Int { counts.withLock { $0.succeeded } }
  var finished: [String] { counts.withLock { $0.finished } }

  func handlerSucceeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64
  ) {
    counts.withLock { $0.succeeded += 1 }
  }

  func handlerFinished(_ outcome: HandlerOutcome) {
    counts.withLock { $0.finished.append(outcome.status.name) }
  }
}
