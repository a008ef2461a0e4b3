import SleeveCore
import Testing

@MainActor
@Suite("User interactions")
struct InteractionTests {
  @Test("a tap is one interaction of three fires; typing is one of n + 2; a toggle one of one")
  func gesturesAreOneInteractionEach() throws {
    let observer = RecordingObserver()
    let button = Button(name: "pay", observer: observer)
    let field = TextField(name: "code", observer: observer)
    let toggle = Switch(name: "gift", observer: observer)
    button.tap()
    field.type("abc")
    toggle.toggle()
    let interactions = observer.interactions
    #expect(interactions.map(\.gesture) == ["tap", "type", "toggle"])
    #expect(interactions.map(\.fireCount) == [3, 5, 1])
    let fires = observer.fires
    #expect(interactions[0].firstFire == fires[0].id && interactions[0].lastFire == fires[2].id)
    #expect(interactions[1].firstFire == fires[3].id && interactions[1].lastFire == fires[7].id)
    #expect(interactions.allSatisfy { $0.depth == 1 && $0.wasEnabled })
    #expect(interactions.allSatisfy { $0.endedAtNanoseconds >= $0.atNanoseconds })
  }

  @Test("an observer changed mid-tap hears only its own fires: the interaction names none else")
  func observerChangedMidInteraction() throws {
    let first = RecordingObserver()
    let second = RecordingObserver()
    let button = Button(name: "pay", observer: first)
    // A handler moves the control to another session during the tap (a screen handed over).
    button.on(.touchDown) { button in button.observer = second }
    button.tap()
    let interaction = try #require(first.interactions.first)
    #expect(first.interactions.count == 1)
    #expect(interaction.fireCount == 1)
    #expect(interaction.firstFire == first.fires[0].id && interaction.lastFire == first.fires[0].id)
    // The second observer saw the other two fires, which were no interaction it began.
    #expect(second.fires.count == 2 && second.interactions.isEmpty)
  }

  @Test("a lone sendInteraction is an interaction named by its events; sendActions is none")
  func loneInteractionAndProgrammaticFire() {
    let observer = RecordingObserver()
    let button = Button(name: "pay", observer: observer)
    button.sendInteraction(for: .valueChanged)
    button.sendActions(for: .touchUpInside)
    button.sendInteraction(for: [])
    #expect(observer.interactions.map(\.gesture) == ["valueChanged"])
    #expect(observer.interactions.first?.fireCount == 1)
  }

  @Test("a handler's nested tap on another control is its own interaction, one level deeper")
  func nestedInteractionIsSeparate() throws {
    let observer = RecordingObserver()
    let outer = Button(name: "outer", observer: observer)
    let inner = Button(name: "inner", observer: observer)
    outer.on(.touchUpInside) { _ in inner.tap() }
    outer.tap()
    let interactions = observer.interactions
    #expect(interactions.map(\.control.name) == ["inner", "outer"])
    #expect(interactions.map(\.depth) == [2, 1])
    #expect(interactions.map(\.fireCount) == [3, 3])
    // The outer interaction's range holds the inner fires, which its depth rule leaves out.
    let outerFires = observer.fires.filter { $0.control.name == "outer" }
    #expect(interactions[1].firstFire == outerFires.first?.id)
    #expect(interactions[1].lastFire == outerFires.last?.id)
  }

  @Test("a handler that taps its own control starts a nested interaction, not a longer one")
  func reentrantTapOnSameControlIsNested() {
    let observer = RecordingObserver()
    let button = Button(name: "pay", observer: observer)
    var again = true
    button.on(.touchUpInside) { control in
      guard again else { return }
      again = false
      control.tap()
    }
    button.tap()
    #expect(observer.interactions.map(\.depth) == [2, 1])
    #expect(observer.interactions.map(\.fireCount) == [3, 3])
  }

  @Test("performInteraction groups a custom gesture; nested calls on one control join it")
  func customGestureGroupsItsFires() {
    let observer = RecordingObserver()
    let button = Button(name: "stepper", observer: observer)
    button.performInteraction("longPress") {
      button.sendInteraction(for: .touchDown)
      button.tap()
      button.sendActions(for: .valueChanged)
    }
    #expect(observer.interactions.map(\.gesture) == ["longPress"])
    #expect(observer.interactions.first?.fireCount == 4)
  }

  @Test("a disabled control's tap is still one interaction, marked not enabled")
  func disabledInteractionIsMarked() {
    let observer = RecordingObserver()
    let button = Button(name: "pay", observer: observer)
    button.isEnabled = false
    button.tap()
    #expect(observer.interactions.count == 1)
    #expect(observer.interactions.first?.wasEnabled == false)
    #expect(observer.interactions.first?.fireCount == 3)
  }

  @Test("an unobserved control reports no interaction and counts none")
  func unobservedInteractionCostsNothing() {
    let observer = RecordingObserver()
    let quiet = Button(name: "quiet")
    var ran = 0
    quiet.on(.touchUpInside) { _ in ran += 1 }
    let watched = Button(name: "watched", observer: observer)
    watched.tap()
    quiet.tap()
    watched.tap()
    #expect(ran == 1)
    #expect(observer.interactions.count == 2)
    // Interaction numbers are given only to observed interactions: the quiet tap took none.
    #expect(observer.interactions[1].id.rawValue == observer.interactions[0].id.rawValue + 1)
  }

  @Test("a replacement by id names the registration it replaced; a plain add names none")
  func replacementNamesWhatItReplaced() throws {
    let observer = RecordingObserver()
    let button = Button(name: "pay", observer: observer)
    let first = button.on(.touchUpInside, id: "submit") { _ in }
    button.on(.touchUpInside, id: "submit") { _ in }
    button.on(.touchUpInside) { _ in }
    let registrations = observer.registrations
    #expect(registrations[0].replaced == nil)
    #expect(registrations[1].replaced == first.id)
    #expect(registrations[2].replaced == nil)
  }
}
