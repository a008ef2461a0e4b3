import SleeveCore
import Testing

@MainActor
final class MainActorTarget {
  var taps = 0
  func didTap(_ button: Button) { taps += 1 }
}

final class SendableTarget: Sendable {
  func didTap(_ button: Button) {}
}

final class ThrowingTarget {
  func didTap(_ button: Button) throws { throw TestFailure(message: "declined") }
}

@MainActor
@Suite("Target-action")
struct TargetActionTests {
  @Test("methods of main-actor, Sendable and plain throwing classes are accepted")
  func methodsOfEveryKindOfClassAreAccepted() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    let mainActor = MainActorTarget()
    let sendable = SendableTarget()
    let throwing = ThrowingTarget()
    button.addTarget(mainActor, action: MainActorTarget.didTap, id: "main", for: .touchUpInside)
    button.addTarget(sendable, action: SendableTarget.didTap, id: "sendable", for: .touchUpInside)
    button.addTarget(throwing, action: ThrowingTarget.didTap, id: "throwing", for: .touchUpInside)
    button.sendActions(for: .touchUpInside)
    #expect(mainActor.taps == 1)
    #expect(
      observer.statuses == [
        "MainActorTarget.main:ok", "SendableTarget.sendable:ok", "ThrowingTarget.throwing:failed",
      ])
    #expect(observer.outcomes.last?.errorMessage == "declined")
  }

  @Test("targets are held weakly")
  func targetsAreHeldWeakly() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var target: Counter? = Counter()
    weak let weakTarget = target
    button.addTarget(target!, action: Counter.recordButton, id: "record", for: .touchUpInside)
    target = nil
    #expect(weakTarget == nil)
    #expect(button.allTargets.isEmpty)
    button.sendActions(for: .touchUpInside)
    #expect(observer.statuses == ["Counter.record:ownerReleased"])
    #expect(observer.removals.map(\.reason) == [.ownerReleased])
  }

  @Test("the same target with the same id extends the entry instead of duplicating it")
  func sameTargetSameIdExtendsEntry() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    let target = Counter()
    let first = button.addTarget(
      target, action: Counter.recordButton, id: "record", for: .touchDown)
    let second = button.addTarget(
      target, action: Counter.recordButton, id: "record", for: .touchUpInside)
    button.sendActions(for: [.touchDown, .touchUpInside])
    #expect(target.count == 1)
    #expect(first == second)
    #expect(button.actions(forTarget: target, forControlEvent: .allEvents) == ["record"])
    #expect(observer.registrations.map(\.change) == [.added, .eventsChanged])
    #expect(observer.registrations.last?.events == [.touchDown, .touchUpInside])
  }

  @Test("without an id every addTarget call adds an entry, each removable alone")
  func withoutIdEveryCallAddsAnEntry() {
    let button = Button(name: "b")
    let target = Counter()
    let first = button.addTarget(target, action: Counter.recordButton, for: .touchUpInside)
    button.addTarget(target, action: Counter.recordButton, for: .touchUpInside)
    button.sendActions(for: .touchUpInside)
    #expect(target.count == 2)
    first.cancel()
    button.sendActions(for: .touchUpInside)
    #expect(target.count == 3)
  }

  @Test(
    "removeTarget follows UIKit's nil rules",
    arguments: [
      // (remove target a?, action id, expected remaining handlers)
      (true, "x" as String?, ["a.y", "b.x", "b.y"]),
      (true, nil, ["b.x", "b.y"]),
      (false, "x", ["a.y", "b.y"]),
      (false, nil, [String]()),
    ])
  func removeTargetFollowsUIKitNilRules(
    targetA: Bool, action: String?, expected: [String]
  ) {
    let button = Button(name: "b")
    let a = Counter()
    let b = Counter()
    var calls: [String] = []
    for (target, label) in [(a, "a"), (b, "b")] {
      for id in ["x", "y"] {
        button.addTarget(
          target, action: { _ in { _ in calls.append("\(label).\(id)") } }, id: id,
          for: .touchUpInside)
      }
    }
    button.on(.touchUpInside, id: "x") { _ in calls.append("closure") }
    button.removeTarget(targetA ? a : nil, action: action, for: .allEvents)
    button.sendActions(for: .touchUpInside)
    #expect(calls == expected + ["closure"])
  }

  @Test("closure ids and target-action ids are separate namespaces")
  func closureAndTargetActionIdsAreSeparate() {
    let button = Button(name: "b")
    let target = Counter()
    var closureCalls = 0
    button.addTarget(target, action: Counter.recordButton, id: "submit", for: .touchUpInside)
    button.on(.touchUpInside, id: "submit") { _ in closureCalls += 1 }
    button.sendActions(for: .touchUpInside)
    button.removeAction(identifiedBy: "submit", for: .allEvents)
    button.sendActions(for: .touchUpInside)
    #expect(closureCalls == 1)
    #expect(target.count == 2)
  }

  @Test("a target released mid-fire, before its turn, is not called")
  func targetReleasedMidFire() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var target: Counter? = Counter()
    button.on(.touchUpInside, id: "releaser") { _ in target = nil }
    button.addTarget(target!, action: Counter.recordButton, id: "record", for: .touchUpInside)
    button.sendActions(for: .touchUpInside)
    #expect(observer.statuses == ["releaser:ok", "Counter.record:ownerReleased"])
  }
}
