import SleeveCore
import Testing

@MainActor
@Suite("Introspection")
struct IntrospectionTests {
  @Test("allControlEvents is the union of every live handler's events")
  func allControlEventsIsTheUnion() {
    let button = Button(name: "b")
    #expect(button.allControlEvents.isEmpty)
    button.on(.touchDown) { _ in }
    button.addTarget(Counter(), action: Counter.recordButton, for: .valueChanged)
    let target = Counter()
    button.addTarget(target, action: Counter.recordButton, for: .touchUpInside)
    #expect(button.allControlEvents == [.touchDown, .touchUpInside])
  }

  @Test("allTargets lists each live target once, in order")
  func allTargetsListsEachLiveTargetOnce() {
    let button = Button(name: "b")
    let a = Counter()
    let b = Counter()
    button.addTarget(a, action: Counter.recordButton, id: "x", for: .touchDown)
    button.addTarget(b, action: Counter.recordButton, id: "x", for: .touchDown)
    button.addTarget(a, action: Counter.recordButton, id: "y", for: .touchDown)
    button.on(.touchDown, owner: Counter()) { _, _ in }
    #expect(button.allTargets.map { ObjectIdentifier($0) } == [a, b].map { ObjectIdentifier($0) })
  }

  @Test("actions(forTarget:forControlEvent:) lists ids, or sites for entries without one")
  func actionsForTargetListsIds() {
    let button = Button(name: "b")
    let target = Counter()
    button.addTarget(target, action: Counter.recordButton, id: "x", for: .touchDown)
    button.addTarget(target, action: Counter.recordButton, for: .touchDown)
    let actions = button.actions(forTarget: target, forControlEvent: .touchDown)
    #expect(actions?.first == "x")
    #expect(actions?.last?.hasPrefix("SleeveCoreTests/IntrospectionTests.swift:") == true)
    #expect(button.actions(forTarget: target, forControlEvent: .touchUpInside) == nil)
    #expect(button.actions(forTarget: nil, forControlEvent: .touchDown) == nil)
  }

  @Test("enumerateEventHandlers visits handlers in dispatch order and can stop")
  func enumerateEventHandlersVisitsInOrder() {
    let button = Button(name: "b")
    let target = Counter()
    button.on(.touchDown, id: "first") { _ in }
    button.addTarget(target, action: Counter.recordButton, id: "second", for: .touchUpInside)
    button.on(.valueChanged, id: "third") { _ in }
    var visited: [String] = []
    var targets: [Bool] = []
    button.enumerateEventHandlers { handler, handlerTarget, _ in
      visited.append(handler.handler)
      targets.append(handlerTarget === target)
    }
    #expect(visited == ["first", "Counter.second", "third"])
    #expect(targets == [false, true, false])
    var count = 0
    button.enumerateEventHandlers { _, _, stop in
      count += 1
      stop = true
    }
    #expect(count == 1)
  }
}
