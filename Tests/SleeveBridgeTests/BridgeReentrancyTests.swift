import SleeveBridge
import SleeveCore
import Testing

/// Registry changes made from inside a handler while the platform control is sending: the
/// trampolines must follow the registry at once, and each platform send stays one mirror fire.
@MainActor
@Suite("Bridge under changes made from inside handlers")
struct BridgeReentrancyTests {
  /// The trampolines, the bridge's record of them and the registry agree.
  func expectExact(_ button: FakePlatformControl, _ comment: Comment? = nil) {
    let registered = button.sleeve.control.registeredEvents
    #expect(button.trampolineEvents == registered, comment)
    #expect(button.sleeve.installedEvents == registered, comment)
    #expect(button.trampolines.count == registered.singleEvents.count, comment)
  }

  @Test("a handler that cancels itself mid-send takes its event's trampoline away at once")
  func handlerCancelsItself() {
    let button = FakePlatformControl()
    let log = FireLog()
    button.sleeve.control.observer = log
    var token: Registration?
    var seenDuringFire: ControlEvents?
    token = button.sleeve.control.on(.touchUpInside) { _ in
      token?.cancel()
      seenDuringFire = button.trampolineEvents
    }
    button.touch(.touchUpInside)
    #expect(seenDuringFire == [])
    #expect(button.actions.isEmpty)
    expectExact(button)
    button.touch(.touchUpInside)
    #expect(log.fires.count == 1)
  }

  @Test("a handler that cancels a later one skips it as removed and drops its trampoline")
  func handlerCancelsAnother() {
    let button = FakePlatformControl()
    let log = FireLog()
    let mirror = button.sleeve.control
    mirror.observer = log
    var later: Registration?
    var laterCalls = 0
    mirror.on(.touchUpInside) { _ in later?.cancel() }
    later = mirror.on([.touchUpInside, .valueChanged]) { _ in laterCalls += 1 }
    #expect(button.trampolineEvents == [.touchUpInside, .valueChanged])
    button.touch(.touchUpInside)
    #expect(laterCalls == 0)
    #expect(log.outcomes.map(\.status) == [.ok, .skipped(.removed)])
    #expect(button.trampolineEvents == .touchUpInside)
    expectExact(button)
  }

  @Test("a handler that adds one for another event installs that event's trampoline mid-send")
  func handlerAddsForAnotherEvent() {
    let button = FakePlatformControl()
    let mirror = button.sleeve.control
    var added = 0
    var addedCalls = 0
    mirror.on(.touchUpInside) { mirror in
      added += 1
      mirror.on(.valueChanged) { _ in addedCalls += 1 }
    }
    button.touch(.touchUpInside)
    #expect(button.trampolineEvents == [.touchUpInside, .valueChanged])
    expectExact(button)
    button.sendActions(for: .valueChanged)
    #expect(addedCalls == 1)
    // A second add for the same event leaves one trampoline for it.
    button.touch(.touchUpInside)
    #expect(button.trampolines.count == 2)
    #expect(button.installs == 2)
    expectExact(button)
  }

  @Test("a replacement by id from inside the replaced handler keeps one trampoline per event")
  func handlerReplacesItselfById() {
    let button = FakePlatformControl()
    let mirror = button.sleeve.control
    var order: [String] = []
    mirror.on(.touchUpInside, id: "press") { mirror in
      order.append("first")
      mirror.on(.touchDown, id: "press") { _ in order.append("second") }
    }
    button.touch([.touchDown, .touchUpInside])
    // The send visited touchDown before the replacement, which moved `press` to touchDown.
    #expect(order == ["first"])
    #expect(button.trampolineEvents == .touchDown)
    expectExact(button)
    button.touch([.touchDown, .touchUpInside])
    #expect(order == ["first", "second"])
  }

  @Test("a handler that removes every target mid-send takes their trampolines away")
  func handlerRemovesTargets() {
    let button = FakePlatformControl()
    let mirror = button.sleeve.control
    let target = Owner()
    mirror.addTarget(
      target, action: Owner.didSend, id: "send", for: [.touchUpInside, .valueChanged])
    mirror.on(.touchUpInside) { mirror in mirror.removeTarget(nil, action: nil, for: .allEvents) }
    mirror.addTarget(target, action: Owner.didSend, id: "late", for: .touchUpInside)
    button.touch(.touchUpInside)
    // The first target ran before the removal; the later one was removed before its turn.
    #expect(target.calls == 1)
    #expect(button.trampolineEvents == .touchUpInside)
    expectExact(button)
  }

  @Test("an owner released mid-fire is pruned in that fire and its trampoline goes with it")
  func ownerReleasedMidFire() {
    let button = FakePlatformControl()
    let log = FireLog()
    let mirror = button.sleeve.control
    mirror.observer = log
    var owner: Owner? = Owner()
    mirror.on(.touchUpInside) { _ in owner = nil }
    mirror.on([.touchUpInside, .editingChanged], owner: owner!) { owner, _ in owner.calls += 1 }
    button.touch(.touchUpInside)
    #expect(log.outcomes.map(\.status) == [.ok, .ownerReleased])
    #expect(log.removals.map(\.reason) == [.ownerReleased])
    #expect(button.trampolineEvents == .touchUpInside)
    expectExact(button)
  }

  @Test("a handler that makes the platform control send another event nests one fire in it")
  func nestedSendOfAnotherEvent() {
    let button = FakePlatformControl()
    let log = FireLog()
    let mirror = button.sleeve.control
    mirror.observer = log
    var inner = 0
    mirror.on(.touchUpInside) { _ in button.sendActions(for: .valueChanged) }
    mirror.on(.valueChanged) { _ in inner += 1 }
    button.touch(.touchUpInside)
    #expect(inner == 1)
    #expect(log.fires.map(\.events) == [.touchUpInside, .valueChanged])
    #expect(log.fires.map(\.depth) == [1, 2])
    #expect(log.fires.last?.parent == log.fires.first?.id)
    // The bridge cannot tell an enabled control's programmatic send from a touch: both are
    // interactions (ControlBridge.platformSent).
    #expect(log.fires.map(\.origin) == [.interaction, .interaction])
  }

  @Test(
    "a re-entrant send of the same event is one more fire per send, nested",
    arguments: [
      false, true,
    ])
  func reentrantSameEvent(observed: Bool) {
    let button = FakePlatformControl()
    let log = FireLog()
    let mirror = button.sleeve.control
    if observed { mirror.observer = log }
    var calls = 0
    var sends = 1
    mirror.on(.touchUpInside) { _ in
      calls += 1
      if sends < 5 {
        sends += 1
        button.touch(.touchUpInside)
      }
    }
    button.touch(.touchUpInside)
    #expect(sends == 5)
    #expect(calls == 5)
    if observed {
      #expect(log.fires.count == 5)
      #expect(log.fires.map(\.depth) == [1, 2, 3, 4, 5])
    }
    expectExact(button)
  }

  @Test(
    "a runaway re-entrant send stops at the nesting limit, each send still one fire",
    arguments: [
      false, true,
    ])
  func runawayStopsAtTheNestingLimit(observed: Bool) {
    let standard = Control.nestingLimit
    defer { Control.nestingLimit = standard }
    Control.nestingLimit = 4
    let button = FakePlatformControl()
    let log = FireLog()
    let mirror = button.sleeve.control
    if observed { mirror.observer = log }
    var calls = 0
    var sends = 0
    mirror.on(.touchUpInside) { _ in
      calls += 1
      sends += 1
      button.touch(.touchUpInside)
    }
    sends += 1
    button.touch(.touchUpInside)
    #expect(calls == 4)
    #expect(sends == 5)
    if observed {
      // The fifth send is a fire of its own, refused: its handler is `recursionLimit`.
      #expect(log.fires.count == sends)
      #expect(log.outcomes.filter { $0.status == .recursionLimit }.count == 1)
      #expect(log.outcomes.filter { $0.status == .ok }.count == 4)
    }
    expectExact(button)
  }

  @Test("a send made by an async handler after it suspends is a fire of its own, not nested")
  func sendFromAnAsyncHandlerAfterSuspending() async {
    let button = FakePlatformControl()
    let log = FireLog()
    let mirror = button.sleeve.control
    mirror.observer = log
    var inner = 0
    mirror.on(.touchUpInside) { _ async in
      await Task.yield()
      button.sendActions(for: .valueChanged)
    }
    mirror.on(.valueChanged) { _ in inner += 1 }
    button.touch(.touchUpInside)
    await mirror.waitUntilIdle()
    #expect(inner == 1)
    #expect(log.fires.map(\.events) == [.touchUpInside, .valueChanged])
    #expect(log.fires.map(\.depth) == [1, 1])
    #expect(log.fires.last?.parent == nil)
    expectExact(button)
  }

  @Test("a handler that sends on another bridged control keeps both controls' trampolines exact")
  func sendAcrossTwoBridges() {
    let first = FakePlatformControl(accessibilityIdentifier: "first")
    let second = FakePlatformControl(accessibilityIdentifier: "second")
    var token: Registration?
    first.on(.touchUpInside) { _ in second.touch(.touchUpInside) }
    token = second.on(.touchUpInside) { second in
      token?.cancel()
      second.sleeve.control.on(.valueChanged) { _ in }
    }
    first.touch(.touchUpInside)
    #expect(second.trampolineEvents == .valueChanged)
    expectExact(first)
    expectExact(second)
  }
}
