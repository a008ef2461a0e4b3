import SleeveBridge
import SleeveCore
import Testing

@MainActor
@Suite("Bridge trampolines")
struct TrampolineTests {
  @Test("the first handler for an event installs its trampoline and the last one removes it")
  func firstInstallsLastRemoves() {
    let button = FakePlatformControl()
    let mirror = button.sleeve.control
    #expect(button.actions.isEmpty)
    let first = mirror.on(.touchUpInside) { _ in }
    #expect(button.trampolines.map(\.identifier) == ["sleeve.64"])
    let second = mirror.on([.touchUpInside, .touchDown]) { _ in }
    #expect(button.trampolines.map(\.identifier) == ["sleeve.64", "sleeve.1"])
    #expect(button.installs == 2)
    first.cancel()
    #expect(button.trampolineEvents == [.touchUpInside, .touchDown])
    second.cancel()
    #expect(button.actions.isEmpty)
    #expect(button.removals == 2)
  }

  @Test("each trampoline answers exactly one event, named sleeve.<raw value>")
  func oneTrampolinePerEventBit() {
    let field = FakePlatformControl(type: "FakeTextField")
    field.sleeve.control.on([.editingChanged, .editingDidEnd, .valueChanged]) { _ in }
    #expect(
      field.trampolines.map { "\($0.identifier)=\($0.events)" } == [
        "sleeve.4096=valueChanged", "sleeve.131072=editingChanged", "sleeve.262144=editingDidEnd",
      ])
  }

  @Test("asking for the bridge twice gives the same bridge and still one trampoline per event")
  func installingTwiceLeavesOne() {
    let button = FakePlatformControl()
    let bridge = button.sleeve
    bridge.control.on(.touchUpInside) { _ in }
    #expect(button.sleeve === bridge)
    #expect(ControlBridge.bridge(for: button) === bridge)
    button.sleeve.control.on(.touchUpInside) { _ in }
    button.on(.touchUpInside) { _ in }
    #expect(button.trampolines.count == 1)
    #expect(button.installs == 1)
  }

  @Test("a replacement by id, a mask change and a target's events keep the trampolines exact")
  func replacementsAndMaskChanges() {
    let button = FakePlatformControl()
    let mirror = button.sleeve.control
    let target = Owner()
    mirror.on(.touchDown, id: "press") { _ in }
    mirror.on(.touchUpInside, id: "press") { _ in }
    #expect(button.trampolineEvents == .touchUpInside)
    mirror.addTarget(target, action: Owner.didSend, id: "send", for: .valueChanged)
    mirror.addTarget(target, action: Owner.didSend, id: "send", for: .editingChanged)
    #expect(button.trampolineEvents == [.touchUpInside, .valueChanged, .editingChanged])
    mirror.removeTarget(target, action: "send", for: .valueChanged)
    #expect(button.trampolineEvents == [.touchUpInside, .editingChanged])
    mirror.removeAction(identifiedBy: "press", for: .allEvents)
    mirror.removeTarget(nil, action: nil, for: .allEvents)
    #expect(button.actions.isEmpty)
  }

  @Test("the app's own actions on the platform control are left alone")
  func appActionsAreUntouched() {
    let button = FakePlatformControl()
    var appCalls = 0
    button.addAction(identifier: "app.submit", for: .touchUpInside) { appCalls += 1 }
    let registration = button.sleeve.control.on(.touchUpInside) { _ in }
    button.touch(.touchUpInside)
    registration.cancel()
    button.touch(.touchUpInside)
    #expect(appCalls == 2)
    #expect(button.actions.map(\.identifier) == ["app.submit"])
  }

  @Test("a handler whose owner is gone keeps its trampoline until the fire that prunes it")
  func releasedOwnerIsPrunedByItsFire() {
    let button = FakePlatformControl()
    let log = FireLog()
    button.sleeve.control.observer = log
    var owner: Owner? = Owner()
    button.sleeve.control.on(.touchUpInside, owner: owner!) { owner, _ in owner.calls += 1 }
    owner = nil
    #expect(button.trampolineEvents == .touchUpInside)
    button.touch(.touchUpInside)
    #expect(log.outcomes.map(\.status.name) == ["ownerReleased"])
    #expect(button.actions.isEmpty)
  }
}
