import SleeveCore
import Testing

@MainActor
@Suite("Removal by events")
struct RemovalTests {
  @Test("removing all events removes a touchUpInside handler")
  func removingAllEventsRemovesSpecificHandler() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var calls = 0
    button.on(.touchUpInside, id: "h") { _ in calls += 1 }
    button.removeAction(identifiedBy: "h", for: .allEvents)
    button.sendActions(for: .touchUpInside)
    #expect(calls == 0)
    #expect(observer.removals.map(\.reason) == [.removed])
  }

  @Test("removal by mask intersection leaves the remaining events")
  func removalByMaskIntersectionLeavesRemainingEvents() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var events: [ControlEvents] = []
    let registration = button.on([.touchDown, .touchUpInside], id: "h") { _ in
      events.append(.touchUpInside)
    }
    button.removeAction(identifiedBy: "h", for: .touchDown)
    button.sendActions(for: .touchDown)
    button.sendActions(for: .touchUpInside)
    #expect(events == [.touchUpInside])
    #expect(registration.isActive)
    #expect(button.allControlEvents == .touchUpInside)
    #expect(observer.registrations.last?.change == .eventsChanged)
    #expect(observer.registrations.last?.events == .touchUpInside)
  }

  @Test("removeTarget removes by intersection too")
  func removeTargetRemovesByIntersection() {
    let button = Button(name: "b")
    let target = Counter()
    button.addTarget(
      target, action: Counter.recordButton, id: "r", for: [.touchDown, .touchUpInside])
    button.removeTarget(target, action: "r", for: .touchUpInside)
    #expect(button.actions(forTarget: target, forControlEvent: .touchUpInside) == nil)
    #expect(button.actions(forTarget: target, forControlEvent: .touchDown) == ["r"])
  }
}
