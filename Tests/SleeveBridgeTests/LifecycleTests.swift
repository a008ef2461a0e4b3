import SleeveBridge
import SleeveCore
import SleeveRecorder
import SleeveTestSupport
import Testing

@MainActor
@Suite("Bridge lifecycle")
struct LifecycleTests {
  @Test("releasing the platform control frees its bridge, mirror, trampolines and captures")
  func releasingThePlatformControlLeaksNothing() {
    weak var weakButton: FakePlatformControl?
    weak var weakBridge: ControlBridge?
    weak var weakMirror: Control?
    weak var weakCapture: Owner?
    var token: Registration?
    do {
      let button = FakePlatformControl()
      let capture = Owner()
      weakCapture = capture
      token = button.sleeve.control.on(.touchUpInside) { _ in capture.calls += 1 }
      button.on(.touchDown) { button in _ = button.isEnabled }
      button.touch([.touchDown, .touchUpInside])
      #expect(capture.calls == 1)
      weakButton = button
      weakBridge = button.sleeve
      weakMirror = button.sleeve.control
    }
    #expect(weakButton == nil)
    #expect(weakBridge == nil)
    #expect(weakMirror == nil)
    #expect(weakCapture == nil)
    #expect(token?.isActive == false)
  }

  @Test("a trampoline kept past its bridge does nothing, and keeps nothing alive")
  func trampolineHoldsTheBridgeWeakly() {
    var kept: [FakePlatformControl.Action] = []
    weak var weakBridge: ControlBridge?
    var calls = 0
    do {
      let button = FakePlatformControl()
      button.sleeve.control.on(.touchUpInside) { _ in calls += 1 }
      kept = button.actions
      weakBridge = button.sleeve
    }
    #expect(weakBridge == nil)
    kept.first?.perform()
    #expect(calls == 0)
    #expect(kept.count == 1)
  }

  @Test("when the platform control goes, every mirror handler ends as ownerReleased")
  func handlersEndAsOwnerReleased() {
    let log = FireLog()
    var mirror: Control?
    do {
      let button = FakePlatformControl()
      button.sleeve.control.observer = log
      button.sleeve.control.on(.touchUpInside, id: "submit") { _ in }
      button.on(.valueChanged) { _ in }
      mirror = button.sleeve.control
    }
    #expect(log.removals.map(\.reason) == [.ownerReleased, .ownerReleased])
    #expect(mirror?.registeredEvents == [])
  }

  @Test("a bridge the app keeps past its platform control still ends the mirror's handlers")
  func keptBridgeStillReleasesHandlers() async {
    let log = FireLog()
    var bridge: ControlBridge?
    weak var weakCapture: Owner?
    do {
      let button = FakePlatformControl()
      let capture = Owner()
      weakCapture = capture
      bridge = button.sleeve  // e.g. a view controller's `let payBridge = payButton.sleeve`
      bridge!.control.observer = log
      bridge!.control.on(.touchUpInside) { _ in capture.calls += 1 }
      bridge!.control.on(.valueChanged) { _ async throws in
        try await Task.sleep(for: .seconds(3_600))
      }
      button.sendActions(for: .valueChanged)
    }
    #expect(bridge?.port == nil)
    #expect(log.removals.map(\.reason) == [.ownerReleased, .ownerReleased])
    #expect(bridge?.control.registeredEvents == [])
    #expect(bridge?.installedEvents == [])
    #expect(weakCapture == nil)
    await bridge?.control.waitUntilIdle()
    #expect(bridge?.control.runningHandlerCount == 0)
    #expect(log.outcomes.map(\.status.name) == ["cancelled"])
  }

  @Test("a recorded session records the platform control's release as removals")
  func sessionRecordsTheRelease() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("bridge.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "BridgeRelease")
    var button: FakePlatformControl? = FakePlatformControl(
      type: "UIButton", accessibilityIdentifier: "checkout.pay")
    session.attach(button!.sleeve.control)
    button!.sleeve.control.on(.touchUpInside, id: "pay") { _ in }
    button!.touch(.touchUpInside)
    button = nil
    try await session.end()

    let db = try Inspector(path: path)
    #expect(try db.rows("SELECT name, kind FROM controls") == ["checkout.pay|UIButton"])
    #expect(
      try db.rows("SELECT handler, removal_reason FROM registrations") == ["pay|ownerReleased"])
    #expect(try db.count("fires") == 1)
  }
}
