import SleeveCore
import Testing

@MainActor
@Suite("Registered events and their watch")
struct RegisteredEventsTests {
  @Test("the watch hears every change of the union, and only changes")
  func watchHearsChangesOnly() {
    let button = Button(name: "b")
    var heard: [ControlEvents] = []
    button.watchRegisteredEvents { heard.append($0) }
    let down = button.on(.touchDown) { _ in }
    button.on(.touchDown) { _ in }
    button.on(.touchUpInside, id: "up") { _ in }
    button.on([.touchUpInside, .valueChanged], id: "up") { _ in }
    button.removeAction(identifiedBy: "up", for: .touchUpInside)
    down.cancel()
    button.removeAction(identifiedBy: "up", for: .valueChanged)
    #expect(
      heard == [
        .touchDown, [.touchDown, .touchUpInside], [.touchDown, .touchUpInside, .valueChanged],
        [.touchDown, .valueChanged], .touchDown,
      ])
    button.watchRegisteredEvents(nil)
    button.on(.editingChanged) { _ in }
    #expect(heard.count == 5)
  }

  @Test("a prune in the middle of a fire reaches the watch before the next handler runs")
  func pruneMidFireReachesTheWatch() {
    let button = Button(name: "b")
    var owner: Counter? = Counter()
    var laterHandlerRan = false
    var heard: [(ControlEvents, Bool)] = []
    button.on([.touchDown, .touchUpInside], owner: owner!) { _, _ in }
    button.on(.touchUpInside) { _ in laterHandlerRan = true }
    button.watchRegisteredEvents { heard.append(($0, laterHandlerRan)) }
    owner = nil
    button.sendActions(for: .touchUpInside)
    #expect(heard.map(\.0) == [.touchUpInside])
    #expect(heard.map(\.1) == [false])
    #expect(laterHandlerRan)
  }

  @Test("registeredEvents counts a released owner's handler until its fire; allControlEvents not")
  func registeredEventsKeepUnprunedHandlers() {
    let button = Button(name: "b")
    var owner: Counter? = Counter()
    button.on(.valueChanged, owner: owner!) { _, _ in }
    owner = nil
    #expect(button.registeredEvents == .valueChanged)
    #expect(button.allControlEvents == [])
    button.sendActions(for: .valueChanged)
    #expect(button.registeredEvents == [])
  }

  @Test("releaseAllHandlers removes every handler as ownerReleased, in order, and cancels tasks")
  func releaseAllHandlers() async {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var heard: [ControlEvents] = []
    button.watchRegisteredEvents { heard.append($0) }
    button.on(.touchDown, id: "first") { _ in }
    button.on(.touchUpInside, id: "slow") { _ in try await Task.sleep(for: .seconds(60)) }
    button.sendActions(for: .touchUpInside)
    button.releaseAllHandlers()
    await button.waitUntilIdle()
    #expect(observer.removals.map(\.reason) == [.ownerReleased, .ownerReleased])
    #expect(observer.statuses == ["slow:cancelled"])
    #expect(button.registeredEvents == [])
    #expect(heard.last == [])
  }

  @Test("a kind given at creation is what observers see; else the class name")
  func givenKind() {
    #expect(Control(name: "pay", kind: "UIButton").kind == "UIButton")
    #expect(Button(name: "pay").kind == "Button")
    #expect(
      ControlEvents([.touchUpInside, .touchDown, .valueChanged]).singleEvents == [
        .touchDown, .touchUpInside, .valueChanged,
      ])
  }
}
