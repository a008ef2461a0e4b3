import SleeveCore
import Testing

/// An app's own control that fires its own interaction through `sendInteraction(for:)`.
@MainActor
final class Stepper: Control {
  var value = 0

  func increment() {
    if isEnabled { value += 1 }
    sendInteraction(for: .valueChanged)
  }
}

@MainActor
@Suite("Dispatch")
struct DispatchTests {
  @Test("closure and target-action entries run in registration order")
  func entriesRunInRegistrationOrder() {
    let button = Button(name: "b")
    let target = Counter()
    var order: [String] = []
    button.on(.touchUpInside) { _ in order.append("closure 1") }
    button.addTarget(
      target, action: { _ in { _ in order.append("target") } }, for: .touchUpInside)
    button.on(.touchUpInside) { _ in order.append("closure 2") }
    button.sendActions(for: .touchUpInside)
    #expect(order == ["closure 1", "target", "closure 2"])
  }

  @Test("handlers receive the control with its own type")
  func handlersReceiveTheControlWithItsOwnType() {
    let toggle = Switch(name: "dark-mode")
    let field = TextField(name: "email")
    var isOn: Bool?
    var text: String?
    toggle.on(.valueChanged) { toggle in isOn = toggle.isOn }
    field.on(.editingDidEnd) { field in text = field.text }
    toggle.toggle()
    field.type("a@b")
    #expect(isOn == true)
    #expect(text == "a@b")
  }

  @Test("a thrown error becomes failed and later handlers still run")
  func thrownErrorBecomesFailedAndLaterHandlersRun() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var later = false
    button.on(.touchUpInside, id: "thrower") { _ in throw TestFailure(message: "card declined") }
    button.on(.touchUpInside, id: "later") { _ in later = true }
    button.sendActions(for: .touchUpInside)
    #expect(later)
    #expect(observer.statuses == ["thrower:failed", "later:ok"])
    let failure = observer.outcomes[0]
    #expect(failure.errorType == "SleeveCoreTests.TestFailure")
    #expect(failure.errorMessage == "card declined")
  }

  @Test("snapshot dispatch: a handler added during a fire does not run in it")
  func handlerAddedDuringFireDoesNotRun() {
    let button = Button(name: "b")
    var calls: [String] = []
    button.on(.touchUpInside) { button in
      calls.append("adder")
      button.on(.touchUpInside) { _ in calls.append("added") }
    }
    button.sendActions(for: .touchUpInside)
    #expect(calls == ["adder"])
    button.sendActions(for: .touchUpInside)
    #expect(calls == ["adder", "adder", "added"])
  }

  @Test("snapshot dispatch: a handler removed during a fire before its turn is skipped")
  func handlerRemovedDuringFireIsSkipped() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var victimRan = false
    let victim = Slot<Registration?>(nil)
    button.on(.touchUpInside, id: "remover") { _ in victim.value?.cancel() }
    victim.value = button.on(.touchUpInside, id: "victim") { _ in victimRan = true }
    button.sendActions(for: .touchUpInside)
    #expect(!victimRan)
    #expect(observer.statuses == ["remover:ok", "victim:skipped/removed"])
  }

  @Test("snapshot dispatch: a handler replaced during a fire is skipped, its replacement waits")
  func handlerReplacedDuringFireIsSkipped() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var calls: [String] = []
    button.on(.touchUpInside, id: "replacer") { button in
      button.on(.touchUpInside, id: "target") { _ in calls.append("new") }
    }
    button.on(.touchUpInside, id: "target") { _ in calls.append("old") }
    button.sendActions(for: .touchUpInside)
    #expect(calls.isEmpty)
    #expect(observer.statuses == ["replacer:ok", "target:skipped/removed"])
  }

  @Test("a handler that cancels itself finishes and never runs again")
  func handlerThatCancelsItself() {
    let button = Button(name: "b")
    var calls = 0
    let registration = Slot<Registration?>(nil)
    registration.value = button.on(.touchUpInside) { _ in
      calls += 1
      registration.value?.cancel()
    }
    button.sendActions(for: .touchUpInside)
    button.sendActions(for: .touchUpInside)
    #expect(calls == 1)
  }

  @Test("a handler that cancels every other handler stops them in the same fire")
  func handlerThatCancelsEveryOtherHandler() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    let before = button.on(.touchUpInside, id: "before") { _ in }
    let after = Slot<[Registration]>([])
    button.on(.touchUpInside, id: "killer") { _ in
      before.cancel()
      for registration in after.value { registration.cancel() }
    }
    after.value = [
      button.on(.touchUpInside, id: "after1") { _ in },
      button.on(.touchUpInside, id: "after2") { _ in },
    ]
    button.sendActions(for: .touchUpInside)
    #expect(
      observer.statuses == [
        "before:ok", "killer:ok", "after1:skipped/removed", "after2:skipped/removed",
      ])
    #expect(button.allControlEvents == .touchUpInside)
  }

  @Test("nested fires run synchronously and record their parent fire")
  func nestedFiresRecordTheirParent() {
    let observer = RecordingObserver()
    let submit = Button(name: "submit", observer: observer)
    let spinner = Switch(name: "spinner", observer: observer)
    var order: [String] = []
    submit.on(.touchUpInside) { _ in
      order.append("submit begins")
      spinner.sendActions(for: .valueChanged)
      order.append("submit ends")
    }
    spinner.on(.valueChanged) { _ in order.append("spinner") }
    submit.sendActions(for: .touchUpInside)
    #expect(order == ["submit begins", "spinner", "submit ends"])
    let fires = observer.fires
    #expect(fires.count == 2)
    #expect(fires[0].parent == nil)
    #expect(fires[0].depth == 1)
    #expect(fires[1].parent == fires[0].id)
    #expect(fires[1].depth == 2)
  }

  @Test("a fire nested in an unobserved fire has no parent; the observed one stays the parent")
  func unobservedFireBreaksTheParentChain() {
    let observer = RecordingObserver()
    let outer = Button(name: "outer", observer: observer)
    let quiet = Button(name: "quiet")
    let inner = Button(name: "inner", observer: observer)
    let sibling = Button(name: "sibling", observer: observer)
    quiet.on(.touchUpInside) { _ in inner.sendActions(for: .touchUpInside) }
    outer.on(.touchUpInside) { _ in
      quiet.sendActions(for: .touchUpInside)
      sibling.sendActions(for: .touchUpInside)
    }
    inner.on(.touchUpInside) { _ in }
    sibling.on(.touchUpInside) { _ in }
    outer.sendActions(for: .touchUpInside)
    let fires = observer.fires
    #expect(fires.map(\.control.name) == ["outer", "inner", "sibling"])
    #expect(fires.map(\.depth) == [1, 3, 2])
    #expect(fires[1].parent == nil, "its parent fire, quiet's, was not observed")
    #expect(fires[2].parent == fires[0].id)
    outer.sendActions(for: .touchUpInside)
    #expect(observer.fires[3].parent == nil, "after the fire ends nothing is its parent")
  }

  @Test("the depth limit refuses runaway recursion across controls")
  func depthLimitRefusesRunawayRecursionAcrossControls() {
    let observer = RecordingObserver()
    let a = Control(name: "a", observer: observer)
    let b = Control(name: "b", observer: observer)
    var calls = 0
    a.on(.valueChanged, id: "a->b") { _ in
      calls += 1
      b.sendActions(for: .valueChanged)
    }
    b.on(.valueChanged, id: "b->a") { _ in
      calls += 1
      a.sendActions(for: .valueChanged)
    }
    a.sendActions(for: .valueChanged)
    #expect(calls == Control.nestingLimit)
    #expect(observer.fires.count == Control.nestingLimit + 1)
    #expect(observer.fires.last?.depth == Control.nestingLimit + 1)
    #expect(observer.statuses.filter { $0.hasSuffix(":recursionLimit") } == ["a->b:recursionLimit"])
  }

  @Test("the depth limit also holds for unobserved controls")
  func depthLimitHoldsWithoutObserver() {
    let control = Control(name: "loop")
    var calls = 0
    control.on(.valueChanged) { control in
      calls += 1
      control.sendActions(for: .valueChanged)
    }
    control.sendActions(for: .valueChanged)
    #expect(calls == Control.nestingLimit)
  }

  @Test("a disabled control suppresses interactions but not sendActions")
  func disabledControlSuppressesInteractionsButNotSendActions() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var calls = 0
    button.on(.touchUpInside, id: "h") { _ in calls += 1 }
    button.isEnabled = false
    button.tap()
    #expect(calls == 0)
    button.sendActions(for: .touchUpInside)
    #expect(calls == 1)
    #expect(observer.statuses == ["h:skipped/disabled", "h:ok"])
    #expect(
      observer.fires.map(\.origin) == [.interaction, .interaction, .interaction, .programmatic])
  }

  @Test("a disabled switch does not move and a disabled text field does not change")
  func disabledControlsDoNotChangeState() {
    let toggle = Switch(name: "s", isOn: true)
    let field = TextField(name: "t", text: "x")
    toggle.isEnabled = false
    field.isEnabled = false
    toggle.toggle()
    field.type("abc")
    #expect(toggle.isOn)
    #expect(field.text == "x")
  }

  @Test("every fire records its origin")
  func everyFireRecordsItsOrigin() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    button.tap()
    button.sendActions(for: .touchUpInside)
    #expect(
      observer.fires.map(\.origin) == [.interaction, .interaction, .interaction, .programmatic])
  }

  @Test("sendInteraction lets an app's own control fire as an interaction")
  func sendInteractionFiresAsInteraction() {
    let observer = RecordingObserver()
    let stepper = Stepper(name: "quantity", observer: observer)
    var values: [Int] = []
    stepper.on(.valueChanged) { stepper in values.append(stepper.value) }
    stepper.increment()
    stepper.isEnabled = false
    stepper.increment()
    #expect(values == [1])
    #expect(observer.fires.map(\.origin) == [.interaction, .interaction])
    #expect(observer.fires.first?.control.kind == "Stepper")
  }

  @Test("sending an empty mask does nothing")
  func sendingEmptyMaskDoesNothing() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    button.on(.allEvents) { _ in Issue.record("must not run") }
    button.sendActions(for: [])
    #expect(observer.fires.isEmpty)
  }
}
