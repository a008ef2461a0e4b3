import SleeveBridge
import SleeveCore
import SleeveTestSupport
import Testing

/// Seeded random sequences in which the handlers themselves change the registry while the
/// platform control sends (cancel, add, replace by id, remove by id, remove targets, release
/// owners, send again, nested): the trampolines are checked against the registry after every
/// change, inside the fire as well as between sends, and the fires against the sends.
@MainActor
@Suite("Bridge under random changes made from inside handlers")
struct ReentrantSequenceTests {
  static let seeds: [UInt64] = (0..<120).map { 0x5EE0_0000 &+ UInt64($0) }

  @Test("trampolines equal the registered events after every change, even mid-send")
  func trampolinesStayExactUnderReentrantChanges() {
    var changesInsideFires = 0
    var nestedSends = 0
    for seed in Self.seeds {
      let run = ReentrantRun(seed: seed, observed: seed % 2 == 1)
      for step in 0..<60 {
        run.step = step
        run.topLevelStep()
        run.check("between sends")
      }
      run.releaseTheControl()
      changesInsideFires += run.changesInsideFires
      nestedSends += run.nestedSends
    }
    // The runs did reach what they attack: changes and sends made from inside handlers.
    #expect(changesInsideFires > 1_000)
    #expect(nestedSends > 200)
  }
}

/// One seeded run whose handlers draw their own mid-fire changes from the run's generator.
@MainActor
final class ReentrantRun {
  static let eventPool: [ControlEvents] = [
    .touchDown, .touchUpInside, .valueChanged, .editingChanged,
  ]
  static let maximumNesting = 3
  /// How many handler calls of one top-level step may change something: bounds the work of a
  /// step, which nested sends and handlers that add handlers would otherwise multiply.
  static let changesPerStep = 8

  let seed: UInt64
  let observed: Bool
  var random: SeededGenerator
  var button: FakePlatformControl? = FakePlatformControl(accessibilityIdentifier: "reentrant")
  let log = FireLog()
  var owners: [Owner?] = (0..<3).map { _ in Owner() }
  var tokens: [Registration] = []
  var expectedFires = 0
  var nesting = 0
  var step = 0
  var changes = 0
  var budget = 0
  var changesInsideFires = 0
  var nestedSends = 0

  init(seed: UInt64, observed: Bool) {
    self.seed = seed
    self.observed = observed
    self.random = SeededGenerator(seed: seed)
    if observed { button!.sleeve.control.observer = log }
  }

  var mirror: Control { button!.sleeve.control }

  func events() -> ControlEvents {
    var events = ControlEvents()
    for _ in 0..<Int.random(in: 1...2, using: &random) {
      events.formUnion(Self.eventPool.randomElement(using: &random)!)
    }
    return events
  }

  func identifier() -> String? { ["a", "b", nil].randomElement(using: &random)! }

  func topLevelStep() {
    budget = Self.changesPerStep
    if Int.random(in: 0..<3, using: &random) == 0 { send() } else { change() }
  }

  /// A handler's body: usually a change or a nested send, sometimes nothing.
  func handlerRan() {
    guard budget > 0 else { return }
    budget -= 1
    switch Int.random(in: 0..<10, using: &random) {
    case 0..<5: change()
    case 5..<7 where nesting < Self.maximumNesting: send()
    default: break
    }
  }

  /// One registry change, then the check that the trampolines followed it at once.
  func change() {
    changes += 1
    if nesting > 0 { changesInsideFires += 1 }
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<30:
      let token = mirror.on(events(), id: identifier()) { [unowned self] _ in handlerRan() }
      tokens.append(token)
    case 30..<40:
      let index = Int.random(in: 0..<owners.count, using: &random)
      guard let owner = owners[index] else { break }
      let token = mirror.on(events(), id: identifier(), owner: owner) { [unowned self] _, _ in
        handlerRan()
      }
      tokens.append(token)
    case 40..<48:
      let index = Int.random(in: 0..<owners.count, using: &random)
      guard let owner = owners[index] else { break }
      tokens.append(mirror.addTarget(owner, action: Owner.didSend, id: identifier(), for: events()))
    case 48..<65:
      tokens.randomElement(using: &random)?.cancel()
    case 65..<75:
      guard let identifier = identifier() else { break }
      mirror.removeAction(identifiedBy: identifier, for: events())
    case 75..<82:
      let index = Int.random(in: 0..<owners.count, using: &random)
      mirror.removeTarget(owners[index], action: identifier(), for: events())
    case 82..<90:
      owners[Int.random(in: 0..<owners.count, using: &random)] = nil
    default:
      // The platform side registers through the closure sleeve.
      let token = button!.on(events(), id: identifier()) { [unowned self] _ in handlerRan() }
      tokens.append(token)
    }
    check(nesting > 0 ? "inside a fire" : "after a change")
  }

  /// A platform send, counted as one expected fire per Sleeve action it reaches: the fake
  /// visits the actions installed when the send began.
  func send() {
    let sent = events()
    if nesting > 0 { nestedSends += 1 }
    expectedFires += button!.trampolines.filter { $0.events.intersects(sent) }.count
    nesting += 1
    defer { nesting -= 1 }
    if Bool.random(using: &random) {
      button!.sendActions(for: sent)
    } else {
      button!.touch(sent)
    }
  }

  func check(_ moment: String) {
    let context = Comment(rawValue: "seed \(seed) step \(step) change \(changes) \(moment)")
    let registered = mirror.registeredEvents
    let trampolines = button!.trampolines
    #expect(button!.trampolineEvents == registered, context)
    #expect(button!.sleeve.installedEvents == registered, context)
    #expect(Set(trampolines.map(\.identifier)).count == trampolines.count, context)
    for trampoline in trampolines {
      #expect(trampoline.events.singleEvents == [trampoline.events], context)
    }
    if observed && nesting == 0 {
      #expect(log.fires.count == expectedFires, context)
      #expect(log.fires.allSatisfy { $0.events.singleEvents == [$0.events] }, context)
    }
  }

  /// Releases the platform control: everything goes, every remaining handler as
  /// `ownerReleased`.
  func releaseTheControl() {
    weak let weakBridge = button!.sleeve
    weak let weakMirror = button!.sleeve.control
    let remaining = mirror.registeredEvents.isEmpty ? 0 : countRemaining()
    let before = log.removals.count
    button = nil
    let context = Comment(rawValue: "seed \(seed) release")
    #expect(weakBridge == nil, context)
    #expect(weakMirror == nil, context)
    if observed {
      #expect(
        log.removals[before...].filter { $0.reason == .ownerReleased }.count == remaining, context)
      #expect(log.removals.count - before == remaining, context)
    }
  }

  private func countRemaining() -> Int { Set(tokens.filter(\.isActive).map(\.id)).count }
}
