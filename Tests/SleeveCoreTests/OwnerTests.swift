import SleeveCore
import Testing

@MainActor
@Suite("Weak-owner handlers")
struct OwnerTests {
  @Test("the owner is passed in strongly with the control as its own type")
  func ownerIsPassedInStrongly() {
    let owner = Counter()
    let toggle = Switch(name: "s")
    var seen: [Bool] = []
    toggle.on(.valueChanged, owner: owner) { owner, toggle in
      owner.count += 1
      seen.append(toggle.isOn)
    }
    toggle.toggle()
    toggle.toggle()
    #expect(owner.count == 2)
    #expect(seen == [true, false])
  }

  @Test("a released owner's handler is not called, reports ownerReleased and is pruned")
  func releasedOwnerIsPruned() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var owner: Counter? = Counter()
    var calls = 0
    button.on(.touchUpInside, id: "owned", owner: owner!) { _, _ in calls += 1 }
    button.on(.touchUpInside, id: "plain") { _ in }
    owner = nil
    button.sendActions(for: .touchUpInside)
    button.sendActions(for: .touchUpInside)
    #expect(calls == 0)
    #expect(observer.statuses == ["owned:ownerReleased", "plain:ok", "plain:ok"])
    #expect(observer.removals.map(\.reason) == [.ownerReleased])
    #expect(button.allControlEvents == .touchUpInside)
  }

  @Test("a handler whose events change after its owner or target is gone is still pruned")
  func eventChangeAfterReleaseStillPrunes() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var owner: Counter? = Counter()
    var target: Counter? = Counter()
    button.on([.touchDown, .touchUpInside], id: "owned", owner: owner!) { owner, _ in
      owner.count += 1
    }
    button.addTarget(target!, action: Counter.recordButton, id: "tap", for: .touchUpInside)
    button.addTarget(target!, action: Counter.recordButton, id: "tap", for: .touchDown)
    owner = nil
    target = nil
    button.removeAction(identifiedBy: "owned", for: .touchDown)
    button.removeTarget(nil, action: "tap", for: .touchDown)
    #expect(button.registeredEvents == .touchUpInside)
    button.sendActions(for: .touchUpInside)
    #expect(observer.statuses == ["owned:ownerReleased", "Counter.tap:ownerReleased"])
    #expect(observer.removals.map(\.reason) == [.ownerReleased, .ownerReleased])
    #expect(button.registeredEvents == [])
  }

  @Test("an owner released mid-fire, before its turn, is reported ownerReleased")
  func ownerReleasedMidFire() {
    let observer = RecordingObserver()
    let button = Button(name: "b", observer: observer)
    var owner: Counter? = Counter()
    button.on(.touchUpInside, id: "releaser") { _ in owner = nil }
    button.on(.touchUpInside, id: "owned", owner: owner!) { owner, _ in owner.count += 1 }
    button.sendActions(for: .touchUpInside)
    #expect(observer.statuses == ["releaser:ok", "owned:ownerReleased"])
  }

  @Test("an async owned handler keeps its owner only while it runs")
  func asyncOwnedHandlerHoldsOwnerWhileRunning() async {
    let button = Button(name: "b")
    var owner: Counter? = Counter()
    weak let weakOwner = owner
    button.on(.touchUpInside, owner: owner!) { owner, _ in
      await Task.yield()
      owner.count += 1
    }
    button.sendActions(for: .touchUpInside)
    owner = nil
    #expect(weakOwner != nil)
    await button.waitUntilIdle()
    #expect(weakOwner == nil)
  }
}
