import Foundation
import SleeveBridge
import SleeveCore
import SleeveTestSupport
import Testing

/// Releases of the platform control at awkward moments: during its own send, off the main
/// actor, and while async handlers run.
@MainActor
@Suite("Bridge releases at awkward moments")
struct BridgeReleaseTests {
  /// Holds a platform control where a handler can drop it.
  @MainActor
  final class Holder {
    var button: FakePlatformControl?
  }

  /// How a test makes the platform control send: through the control, or through an action
  /// kept apart from it (as a system holding only the action would), so nothing but the
  /// bridge keeps the control alive during the send.
  enum SendPath: String, CaseIterable, CustomTestStringConvertible {
    case control, keptAction
    var testDescription: String { rawValue }
  }

  @Test(
    "a handler that drops the last reference to its platform control mid-fire ends the fire, then the release is recorded",
    arguments: SendPath.allCases)
  func handlerDropsTheLastReference(path: SendPath) {
    let log = FireLog()
    let holder = Holder()
    weak var weakButton: FakePlatformControl?
    weak var weakBridge: ControlBridge?
    weak var weakMirror: Control?
    var calls: [String] = []
    var kept: [FakePlatformControl.Action] = []
    do {
      let button = FakePlatformControl(accessibilityIdentifier: "dropper")
      holder.button = button
      button.sleeve.control.observer = log
      button.on(.touchUpInside) { button in
        calls.append("drop \(button.platformAccessibilityIdentifier ?? "")")
        holder.button = nil
      }
      button.sleeve.control.on(.touchUpInside) { _ in calls.append("after") }
      button.on(.touchUpInside) { button in calls.append("owned \(button.isEnabled)") }
      kept = button.actions
      weakButton = button
      weakBridge = button.sleeve
      weakMirror = button.sleeve.control
    }
    switch path {
    case .control: holder.button?.touch(.touchUpInside)
    case .keptAction: kept.first?.perform()
    }
    #expect(calls == ["drop dropper", "after", "owned true"])
    #expect(weakButton == nil)
    #expect(weakBridge == nil)
    #expect(weakMirror == nil)
    #expect(log.fires.count == 1)
    #expect(log.outcomes.map(\.status) == [.ok, .ok, .ok])
    #expect(log.removals.map(\.reason) == [.ownerReleased, .ownerReleased, .ownerReleased])
    // The kept action outlives everything and does nothing.
    kept.first?.perform()
    #expect(calls.count == 3)
    #expect(log.fires.count == 1)
  }

  @Test(
    "a platform control released during a direct fire of its mirror ends the later handlers of that fire",
    arguments: [false, true])
  func releasedDuringADirectMirrorFire(observed: Bool) {
    let log = FireLog()
    let holder = Holder()
    holder.button = FakePlatformControl()
    weak let weakButton = holder.button
    let mirror = holder.button!.sleeve.control
    if observed { mirror.observer = log }
    var laterCalls = 0
    mirror.on(.touchUpInside) { _ in holder.button = nil }
    mirror.on(.touchUpInside) { _ in laterCalls += 1 }
    // The app fires the mirror itself: nothing but the platform control keeps the bridge.
    mirror.sendActions(for: .touchUpInside)
    #expect(weakButton == nil)
    #expect(laterCalls == 0)
    #expect(mirror.registeredEvents == [])
    if observed {
      #expect(log.outcomes.map(\.status) == [.ok, .skipped(.removed)])
      #expect(log.removals.map(\.reason) == [.ownerReleased, .ownerReleased])
    }
  }

  @Test(
    "the last reference dropped off the main actor frees the bridge on it and records the removals")
  func lastReferenceDroppedOffTheMainActor() async throws {
    let log = FireLog()
    weak var weakBridge: ControlBridge?
    weak var weakMirror: Control?
    let box = Locked<FakePlatformControl?>(nil)
    weak var weakCapture: Owner?
    var calls = 0
    do {
      let capture = Owner()
      weakCapture = capture
      let button = FakePlatformControl(accessibilityIdentifier: "detached")
      button.sleeve.control.observer = log
      button.sleeve.control.on(.touchUpInside) { _ in capture.calls += 1 }
      button.on(.valueChanged) { _ in }
      button.touch(.touchUpInside)
      calls = capture.calls
      weakBridge = button.sleeve
      weakMirror = button.sleeve.control
      box.withLock { $0 = button }
    }
    let droppedOffMain = await Task.detached {
      let wasMain = Thread.isMainThread
      box.withLock { $0 = nil }
      return !wasMain
    }.value
    #expect(droppedOffMain)
    try await waitUntil { weakBridge == nil && weakMirror == nil }
    #expect(weakBridge == nil)
    #expect(weakMirror == nil)
    #expect(weakCapture == nil)
    #expect(log.removals.map(\.reason) == [.ownerReleased, .ownerReleased])
    #expect(calls == 1)
  }

  @Test(
    "an async handler still running is cancelled when its platform control goes, and then freed")
  func asyncHandlerCancelledOnRelease() async throws {
    let log = FireLog()
    weak var weakMirror: Control?
    weak var weakBridge: ControlBridge?
    var button: FakePlatformControl? = FakePlatformControl()
    button!.sleeve.control.observer = log
    button!.sleeve.control.on(.touchUpInside) { _ async throws in
      try await Task.sleep(for: .seconds(3_600))
    }
    button!.touch(.touchUpInside)
    #expect(button!.sleeve.control.runningHandlerCount == 1)
    weakMirror = button!.sleeve.control
    weakBridge = button!.sleeve
    button = nil
    #expect(weakBridge == nil)
    #expect(log.removals.map(\.reason) == [.ownerReleased])
    try await waitUntil { weakMirror == nil }
    #expect(weakMirror == nil)
    #expect(log.outcomes.map(\.status) == [.cancelled])
  }

  @Test("an async handler owned by its platform control keeps the control alive only while it runs")
  func ownedAsyncHandlerPinsTheControlWhileItRuns() async throws {
    let gate = Gate()
    weak var weakButton: FakePlatformControl?
    weak var weakMirror: Control?
    do {
      let button = FakePlatformControl()
      button.sleeve.control.on(.touchUpInside, owner: button) { button, _ async throws in
        while !gate.isOpen { try await Task.sleep(for: .milliseconds(2)) }
        _ = button.isEnabled
      }
      button.touch(.touchUpInside)
      weakButton = button
      weakMirror = button.sleeve.control
    }
    #expect(weakButton != nil)
    #expect(weakMirror?.runningHandlerCount == 1)
    gate.isOpen = true
    try await waitUntil { weakButton == nil && weakMirror == nil }
    #expect(weakButton == nil)
    #expect(weakMirror == nil)
  }
}

/// Opened by a test to let an async handler finish.
@MainActor
final class Gate {
  var isOpen = false
}

/// Waits, yielding to the main actor, until `condition` holds, or until both `WaitBounds.hang`
/// and 2,000 turns of waiting have passed: the turns keep a main actor that other tests hold
/// busy (the sanitizer's slow sequences) from using up the time before the awaited task ran.
@MainActor
func waitUntil(_ condition: () -> Bool) async throws {
  let deadline = ContinuousClock.now + WaitBounds.hang
  var turns = 0
  while !condition() && (turns < 2_000 || ContinuousClock.now < deadline) {
    turns += 1
    try await Task.sleep(for: .milliseconds(1))
  }
}
