import SleeveCore
import Testing

@MainActor
@Suite("Registrations")
struct RegistrationTests {
  @Test("repeated on calls accumulate and never overwrite")
  func repeatedOnCallsAccumulate() {
    let button = Button(name: "b")
    var calls: [String] = []
    button.on(.touchUpInside) { _ in calls.append("first") }
    button.on(.touchUpInside) { _ in calls.append("second") }
    button.sendActions(for: .touchUpInside)
    #expect(calls == ["first", "second"])
  }

  @Test("cancel removes the handler and reports cancelled")
  func cancelRemovesHandler() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var calls = 0
    let registration = button.on(.touchUpInside, id: "h") { _ in calls += 1 }
    #expect(registration.isActive)
    registration.cancel()
    button.sendActions(for: .touchUpInside)
    #expect(calls == 0)
    #expect(!registration.isActive)
    #expect(observer.removals.map(\.reason) == [.cancelled])
  }

  @Test("cancelling twice does nothing the second time")
  func cancellingTwiceIsHarmless() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    let registration = button.on(.touchUpInside) { _ in }
    registration.cancel()
    registration.cancel()
    #expect(observer.removals.count == 1)
  }

  @Test("a registration holds its control weakly and cancels harmlessly after it is gone")
  func registrationHoldsControlWeakly() {
    var button: Button? = Button(name: "b")
    weak let weakButton = button
    let registration = button?.on(.touchUpInside) { _ in }
    button = nil
    #expect(weakButton == nil)
    #expect(registration?.isActive == false)
    registration?.cancel()
  }

  @Test("registering on an empty event mask registers nothing")
  func emptyMaskRegistersNothing() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    button.on(.touchUpInside, id: "keep") { _ in }
    let registration = button.on([], id: "keep") { _ in }
    #expect(!registration.isActive)
    #expect(button.allControlEvents == .touchUpInside)
    #expect(observer.registrations.count == 1)
    #expect(observer.removals.isEmpty)
    registration.cancel()
  }

  @Test("replacing by identifier keeps position")
  func replacingByIdentifierKeepsPosition() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var calls: [String] = []
    button.on(.touchUpInside, id: "a") { _ in calls.append("a1") }
    let old = button.on(.touchUpInside, id: "b") { _ in calls.append("b1") }
    button.on(.touchUpInside, id: "c") { _ in calls.append("c1") }
    let new = button.on(.touchUpInside, id: "b") { _ in calls.append("b2") }
    button.sendActions(for: .touchUpInside)
    #expect(calls == ["a1", "b2", "c1"])
    #expect(!old.isActive)
    #expect(new.isActive)
    #expect(observer.removals.map(\.reason) == [.replaced])
    #expect(observer.removals.first?.id == old.id)
  }

  @Test("a replacement by identifier takes its new events whole")
  func replacementTakesNewEventsWhole() {
    let button = Button(name: "b")
    var calls: [String] = []
    button.on([.touchDown, .touchUpInside], id: "h") { _ in calls.append("old") }
    button.on(.valueChanged, id: "h") { _ in calls.append("new") }
    button.sendActions(for: [.touchDown, .touchUpInside])
    button.sendActions(for: .valueChanged)
    #expect(calls == ["new"])
    #expect(button.allControlEvents == .valueChanged)
  }

  @Test("cancelling a replaced registration leaves its replacement alone")
  func cancellingReplacedTokenIsHarmless() {
    let button = Button(name: "b")
    var calls = 0
    let old = button.on(.touchUpInside, id: "h") { _ in }
    button.on(.touchUpInside, id: "h") { _ in calls += 1 }
    old.cancel()
    button.sendActions(for: .touchUpInside)
    #expect(calls == 1)
  }

  @Test("removing what was never added does nothing")
  func removingWhatWasNeverAddedDoesNothing() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var calls = 0
    button.on(.touchUpInside) { _ in calls += 1 }
    button.removeAction(identifiedBy: "missing", for: .allEvents)
    button.removeTarget(Counter(), action: "missing", for: .allEvents)
    button.removeTarget(nil, action: nil, for: .allEvents)
    button.sendActions(for: .touchUpInside)
    #expect(calls == 1)
    #expect(observer.removals.isEmpty)
  }
}
