import SleeveBridge
import SleeveCore
import Testing

@MainActor
@Suite("Platform sends become mirror fires")
struct PlatformFireTests {
  @Test("one platform send of an event is exactly one fire of the mirror, with every handler")
  func oneSendIsOneFire() {
    let button = FakePlatformControl()
    let log = FireLog()
    let mirror = button.sleeve.control
    mirror.observer = log
    var order: [String] = []
    mirror.on(.touchUpInside, id: "a") { _ in order.append("a") }
    mirror.on([.touchDown, .touchUpInside], id: "b") { _ in order.append("b") }
    mirror.on(.touchUpInside, id: "c") { _ in order.append("c") }
    button.touch(.touchUpInside)
    #expect(log.fires.count == 1)
    #expect(log.fires.first?.events == .touchUpInside)
    #expect(log.fires.first?.origin == .interaction)
    #expect(log.outcomes.count == 3)
    #expect(order == ["a", "b", "c"])
  }

  @Test("a send of several events is one fire per event the mirror answers, in install order")
  func severalEventsAreOneFireEach() {
    let button = FakePlatformControl()
    let log = FireLog()
    let mirror = button.sleeve.control
    mirror.observer = log
    mirror.on(.touchUpInside) { _ in }
    mirror.on(.touchDown) { _ in }
    button.sendActions(for: [.touchDown, .touchUpInside, .valueChanged])
    #expect(log.fires.map(\.events) == [.touchUpInside, .touchDown])
  }

  @Test("a disabled platform control's send is programmatic and runs the handlers, as UIKit's")
  func disabledSendIsProgrammatic() {
    let button = FakePlatformControl()
    let log = FireLog()
    let mirror = button.sleeve.control
    mirror.observer = log
    var calls = 0
    mirror.on(.touchUpInside) { _ in calls += 1 }
    button.isEnabled = false
    button.touch(.touchUpInside)
    #expect(calls == 0)
    button.sendActions(for: .touchUpInside)
    #expect(calls == 1)
    #expect(log.fires.map(\.origin) == [.programmatic])
    #expect(mirror.isEnabled == false)
    button.isEnabled = true
    button.touch(.touchUpInside)
    #expect(log.fires.map(\.origin) == [.programmatic, .interaction])
    #expect(mirror.isEnabled)
  }

  @Test("the closure sleeve passes the platform control itself, typed")
  func handlerReceivesThePlatformControl() {
    let button = FakePlatformControl(accessibilityIdentifier: "checkout.pay")
    var received: [String?] = []
    button.on(.touchUpInside) { button in received.append(button.platformAccessibilityIdentifier) }
    button.touch(.touchUpInside)
    #expect(received == ["checkout.pay"])
  }

  #if DEBUG
    @Test("with no observer a platform send reads no clock; with one it does")
    func unobservedSendReadsNoClock() {
      let button = FakePlatformControl()
      let mirror = button.sleeve.control
      mirror.observer = nil
      var calls = 0
      mirror.on(.touchUpInside) { _ in calls += 1 }
      button.on(.touchUpInside) { _ in calls += 1 }
      let unobserved = ClockReadWatch.reads { button.touch(.touchUpInside) }
      #expect(calls == 2)
      #expect(unobserved == 0)
      mirror.observer = FireLog()
      let observed = ClockReadWatch.reads { button.touch(.touchUpInside) }
      #expect(calls == 4)
      #expect(observed > 0)
    }
  #endif
}
