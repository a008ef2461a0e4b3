import SleeveBridge
import SleeveCore
import Testing

@MainActor
@Suite("Mirror naming", .serialized)
struct NamingTests {
  @Test("a mirror is named by its accessibility identifier, else its platform type")
  func defaultNaming() {
    let named = FakePlatformControl(type: "UIButton", accessibilityIdentifier: "checkout.pay")
    let unnamed = FakePlatformControl(type: "UISwitch", accessibilityIdentifier: nil)
    let empty = FakePlatformControl(type: "UISlider", accessibilityIdentifier: "")
    #expect(named.sleeve.control.name == "checkout.pay")
    #expect(unnamed.sleeve.control.name == "UISwitch")
    #expect(empty.sleeve.control.name == "UISlider")
    #expect(named.sleeve.control.kind == "UIButton")
    #expect(named.sleeve.isNamed)
  }

  @Test("the app's predicate names mirrors, and nil leaves a control unrecorded but working")
  func replacedPredicate() {
    let standard = ControlBridge.naming
    defer { ControlBridge.naming = standard }
    ControlBridge.naming = { identity in
      identity.accessibilityIdentifier.map { "app.\($0)" }
    }
    let log = FireLog()
    ControlDefaults.$observer.withValue(log) {
      let named = FakePlatformControl(accessibilityIdentifier: "save")
      let anonymous = FakePlatformControl(type: "PrivateChevron")
      #expect(named.sleeve.control.name == "app.save")
      #expect(named.sleeve.control.observer != nil)
      #expect(!anonymous.sleeve.isNamed)
      #expect(!anonymous.sleeve.isRecorded)
      #expect(named.sleeve.isRecorded)
      #expect(anonymous.sleeve.control.observer == nil)
      var calls = 0
      anonymous.on(.touchUpInside) { _ in calls += 1 }
      anonymous.touch(.touchUpInside)
      #expect(calls == 1)
      #expect(log.fires.isEmpty)
    }
  }

  @Test("a control the predicate leaves out ignores the default observer; attaching it records it")
  func leftOutIgnoresTheDefaultObserver() {
    let standard = ControlBridge.naming
    defer { ControlBridge.naming = standard }
    ControlBridge.naming = { _ in nil }
    let log = FireLog()
    ControlDefaults.$observer.withValue(log) {
      let chevron = FakePlatformControl(type: "PrivateChevron", accessibilityIdentifier: "x")
      chevron.on(.touchUpInside) { _ in }
      chevron.touch(.touchUpInside)
      #expect(log.fires.isEmpty)
      #expect(!chevron.sleeve.isRecorded)
      chevron.sleeve.control.observer = log
      #expect(chevron.sleeve.isRecorded)
      chevron.touch(.touchUpInside)
      #expect(log.fires.count == 1)
    }
  }
}
