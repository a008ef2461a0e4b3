import SleeveCore
import Testing

#if canImport(Glibc)
  import Glibc
#endif

@MainActor
@Suite("Dispatch observer")
struct ObserverTests {
  @Test("a scripted interaction on all three controls yields the exact observer sequence")
  func scriptedInteractionYieldsExactSequence() {
    let observer = RecordingObserver()
    let button = Button(name: "submit", observer: observer)
    let toggle = Switch(name: "gift", observer: observer)
    let field = TextField(name: "code", observer: observer)
    let registration = button.on(.touchUpInside, id: "pay") { _ in }
    toggle.on(.valueChanged, id: "wrap") { _ in throw TestFailure(message: "no paper") }
    field.on(.editingChanged, id: "validate") { _ in }
    button.tap()
    toggle.toggle()
    field.type("ab")
    registration.cancel()
    #expect(
      observer.lines == [
        "registered pay touchUpInside added",
        "registered wrap valueChanged added",
        "registered validate editingChanged added",
        "fire submit touchDown interaction", "end submit touchDown",
        "fire submit touchUpInside interaction", "outcome pay ok", "end submit touchUpInside",
        "fire submit primaryActionTriggered interaction", "end submit primaryActionTriggered",
        "interaction submit tap 3",
        "fire gift valueChanged interaction", "outcome wrap failed", "end gift valueChanged",
        "interaction gift toggle 1",
        "fire code editingDidBegin interaction", "end code editingDidBegin",
        "fire code editingChanged interaction", "outcome validate ok", "end code editingChanged",
        "fire code editingChanged interaction", "outcome validate ok", "end code editingChanged",
        "fire code editingDidEnd interaction", "end code editingDidEnd",
        "interaction code type 4",
        "removed pay cancelled",
      ])
  }

  @Test("a handler that sleeps 5 ms reports at least 5 ms")
  func sleepingHandlerReportsItsDuration() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    button.on(.touchUpInside) { _ in usleep(5_000) }
    let before = MonotonicClock.nanoseconds()
    button.sendActions(for: .touchUpInside)
    let outcome = observer.outcomes.first
    #expect(outcome?.status == .ok)
    #expect((outcome?.durationNanoseconds ?? 0) >= 5_000_000)
    #expect((outcome?.startedAtNanoseconds ?? 0) >= before)
  }

  @Test("observers are injected per control")
  func observersAreInjectedPerControl() {
    let first = RecordingObserver()
    let second = RecordingObserver()
    let a = Button(name: "a", observer: first)
    let b = Button(name: "b", observer: second)
    a.sendActions(for: .touchUpInside)
    b.sendActions(for: .touchUpInside)
    b.sendActions(for: .touchUpInside)
    #expect(first.fires.count == 1)
    #expect(second.fires.count == 2)
  }

  @Test("the no-op observer is the same as none")
  func noOpObserverIsTheSameAsNone() {
    let button = Button(name: "b", observer: NoOpDispatchObserver())
    #expect(button.observer == nil)
    button.observer = NoOpDispatchObserver()
    #expect(button.observer == nil)
  }

  @Test("attaching an observer late reports the existing handlers")
  func attachingLateReportsExistingHandlers() {
    let button = Button(name: "b")
    button.on(.touchUpInside, id: "one") { _ in }
    button.addTarget(Counter(), action: Counter.recordButton, id: "gone", for: .touchDown)
    let observer = RecordingObserver()
    button.observer = observer
    #expect(
      observer.lines == [
        "registered one touchUpInside existing", "registered Counter.gone touchDown existing",
      ])
  }

  @Test(
    "task-scoped defaults reach controls created in the scope and nowhere else",
    arguments: 0..<4)
  func taskScopedDefaultsAreIsolated(run: Int) async {
    let observer = RecordingObserver()
    let flags = InMemoryFlagProvider(["f": .enabled])
    let inside = ControlDefaults.$observer.withValue(observer) {
      ControlDefaults.$flags.withValue(flags) { Button(name: "inside-\(run)") }
    }
    let outside = Button(name: "outside-\(run)")
    await Task.yield()
    inside.sendActions(for: .touchUpInside)
    outside.sendActions(for: .touchUpInside)
    #expect(observer.fires.map(\.control.name) == ["inside-\(run)"])
    #expect(inside.flags?.state(of: "f") == .enabled)
    #expect(outside.flags == nil)
  }

  @Test("the process-wide default observer reaches controls created later")
  func processWideDefaultObserver() {
    // No suspension point between setting and restoring: no other main-actor test can
    // create a control in between.
    let observer = RecordingObserver()
    Control.defaultObserver = observer
    let button = Button(name: "app-wide")
    Control.defaultObserver = nil
    button.sendActions(for: .touchUpInside)
    #expect(observer.fires.map(\.control.name) == ["app-wide"])
  }

  @Test("registration info names handlers by id, site or target type")
  func registrationInfoNamesHandlers() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    button.on(.touchUpInside, id: "named") { _ in }
    button.on(.touchUpInside) { _ in }
    let target = Counter()
    button.addTarget(target, action: Counter.recordButton, for: .touchUpInside)
    let handlers = observer.registrations.map(\.handler)
    #expect(handlers[0] == "named")
    #expect(handlers[1].hasPrefix("SleeveCoreTests/ObserverTests.swift:"))
    #expect(handlers[2].hasPrefix("Counter@SleeveCoreTests/ObserverTests.swift:"))
    #expect(observer.registrations.allSatisfy { $0.control.kind == "Button" })
  }
}
