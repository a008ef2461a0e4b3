import SleeveCore
import Testing

/// Snapshot dispatch must hold the same way on the unobserved hot path (which reads the
/// registry in place) as on the observed path (which copies it), so every case runs both ways.
@MainActor
@Suite("Snapshot dispatch, observed and unobserved")
struct SnapshotDispatchTests {

  func makeButton(observed: Bool) -> Button {
    Button(name: "b", observer: observed ? RecordingObserver() : nil)
  }

  @Test("a handler removed before its turn does not run", arguments: [true, false])
  func removedBeforeItsTurnDoesNotRun(observed: Bool) {
    let button = makeButton(observed: observed)
    var calls: [String] = []
    let victim = Slot<Registration?>(nil)
    button.on(.touchUpInside) { _ in
      calls.append("remover")
      victim.value?.cancel()
    }
    victim.value = button.on(.touchUpInside) { _ in calls.append("victim") }
    button.on(.touchUpInside) { _ in calls.append("after") }
    button.sendActions(for: .touchUpInside)
    #expect(calls == ["remover", "after"])
  }

  @Test(
    "a handler added or replaced during a fire waits for the next one", arguments: [true, false])
  func addedOrReplacedDuringFireWaits(observed: Bool) {
    let button = makeButton(observed: observed)
    var calls: [String] = []
    button.on(.touchUpInside, id: "mutator") { button in
      calls.append("mutator")
      button.on(.touchUpInside) { _ in calls.append("added") }
      button.on(.touchUpInside, id: "replaced") { _ in calls.append("replacement") }
    }
    button.on(.touchUpInside, id: "replaced") { _ in calls.append("original") }
    button.sendActions(for: .touchUpInside)
    #expect(calls == ["mutator"])
  }

  @Test("a handler narrowed during a fire runs only if it still matches", arguments: [true, false])
  func narrowedDuringFire(observed: Bool) {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observed ? observer : nil)
    var calls: [String] = []
    button.on(.allTouchEvents, id: "narrower") { button in
      button.removeAction(identifiedBy: "kept", for: .touchDown)
      button.removeAction(identifiedBy: "dropped", for: .touchUpInside)
    }
    button.on([.touchDown, .touchUpInside], id: "kept") { _ in calls.append("kept") }
    button.on([.touchDown, .touchUpInside], id: "dropped") { _ in calls.append("dropped") }
    button.sendActions(for: .touchUpInside)
    #expect(calls == ["kept"])
    if observed {
      #expect(observer.statuses == ["narrower:ok", "kept:ok", "dropped:skipped/removed"])
    }
  }

  @Test(
    "a nested fire of the same control that changes the registry leaves the outer snapshot intact",
    arguments: [true, false])
  func nestedFireOfSameControlKeepsOuterSnapshot(observed: Bool) {
    let button = makeButton(observed: observed)
    var calls: [String] = []
    let second = Slot<Registration?>(nil)
    button.on(.touchUpInside) { button in
      calls.append("first")
      button.on(.touchUpInside) { _ in calls.append("added by first") }
      button.sendActions(for: .valueChanged)
    }
    second.value = button.on(.touchUpInside) { _ in calls.append("second") }
    button.on(.touchUpInside) { _ in calls.append("third") }
    button.on(.valueChanged) { _ in
      calls.append("inner")
      second.value?.cancel()
    }
    button.sendActions(for: .touchUpInside)
    #expect(calls == ["first", "inner", "third"])
    calls.removeAll()
    button.sendActions(for: .touchUpInside)
    #expect(calls == ["first", "inner", "third", "added by first"])
  }

  @Test(
    "a handler that clears the whole registry stops the rest of the fire", arguments: [true, false])
  func clearingTheRegistryStopsTheFire(observed: Bool) {
    let button = makeButton(observed: observed)
    let target = Counter()
    var calls: [String] = []
    button.on(.touchUpInside, id: "clearer") { button in
      calls.append("clearer")
      button.removeTarget(nil, action: nil, for: .allEvents)
      button.removeAction(identifiedBy: "later", for: .allEvents)
    }
    button.addTarget(target, action: Counter.recordButton, for: .touchUpInside)
    button.on(.touchUpInside, id: "later") { _ in calls.append("later") }
    button.sendActions(for: .touchUpInside)
    #expect(calls == ["clearer"])
    #expect(target.count == 0)
    #expect(button.allControlEvents == .touchUpInside)
  }
}

/// What a handler's closure keeps alive; its deinit is what the lifetime tests watch.
final class Capture {}

/// A weak reference to a ``Capture`` that handlers can share.
@MainActor
final class WeakCapture {
  weak var value: Capture?
}

/// The unobserved fire calls each closure without retaining it: the array the fire began over
/// must keep it alive however the handler changes the registry (``HandlerRegistry``'s pin).
@MainActor
@Suite("A handler outlives its own removal until the fire ends")
struct HandlerLifetimeDuringFireTests {
  @Test(
    "a handler that removes itself keeps its captures until the fire ends",
    arguments: [true, false])
  func selfRemovalKeepsCaptures(observed: Bool) {
    let button = Button(name: "b", observer: observed ? RecordingObserver() : nil)
    let watch = WeakCapture()
    var aliveAfterRemoval: [Bool] = []
    registerSelfRemover(on: button, watch: watch) {
      aliveAfterRemoval.append(watch.value != nil)
    }
    #expect(watch.value != nil)
    button.sendActions(for: .touchUpInside)
    #expect(aliveAfterRemoval == [true, true])
    #expect(watch.value == nil, "released once the fire ended")
  }

  @Test("a nested fire that removes the outer handler keeps it alive until the outer fire ends")
  func nestedRemovalKeepsOuterCaptures() {
    let button = Button(name: "b")
    let watch = WeakCapture()
    var aliveAfterInnerFire: [Bool] = []
    let outer = Slot<Registration?>(nil)
    do {
      let capture = Capture()
      watch.value = capture
      outer.value = button.on(.touchUpInside) { button in
        withExtendedLifetime(capture) {}
        button.sendActions(for: .valueChanged)
        aliveAfterInnerFire.append(watch.value != nil)
      }
    }
    button.on(.valueChanged) { _ in
      outer.value?.cancel()
      outer.value = nil
    }
    button.sendActions(for: .touchUpInside)
    #expect(aliveAfterInnerFire == [true])
    #expect(watch.value == nil, "released once the outer fire ended")
  }

  /// Registers a handler that captures a fresh `Capture` (watched weakly through `watch`),
  /// cancels its own registration, reports, then registers enough handlers to move the
  /// registry's storage, and reports again.
  private func registerSelfRemover(
    on button: Button, watch: WeakCapture, report: @escaping @MainActor () -> Void
  ) {
    let own = Slot<Registration?>(nil)
    let capture = Capture()
    watch.value = capture
    own.value = button.on(.touchUpInside) { button in
      withExtendedLifetime(capture) {}
      own.value?.cancel()
      own.value = nil
      report()
      for _ in 0..<64 { button.on(.valueChanged) { _ in } }
      report()
    }
  }
}

@MainActor
@Suite("Snapshot dispatch under heavy mutation")
struct SnapshotDispatchUnderMutationTests {
  @Test("a handler that registers thousands of handlers mid-fire runs alone in that fire")
  func registeringThousandsMidFire() {
    let button = Button(name: "b")
    var added = 0
    var ran = 0
    button.on(.touchUpInside, id: "spawner") { button in
      for _ in 0..<5_000 {
        button.on(.touchUpInside) { _ in ran += 1 }
        added += 1
      }
      button.removeAction(identifiedBy: "spawner", for: .allEvents)
    }
    button.sendActions(for: .touchUpInside)
    #expect(ran == 0)
    button.sendActions(for: .touchUpInside)
    #expect(ran == added)
  }
}
