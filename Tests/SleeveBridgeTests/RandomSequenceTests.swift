import SleeveBridge
import SleeveCore
import SleeveTestSupport
import Testing

/// Seeded random sequences of adds, replacements, removals, cancellations, owner releases and
/// platform sends against a fake platform control, checked after every step against a model
/// of the registry written from the documented rules (not from the core's code).
@MainActor
@Suite("Bridge under random sequences")
struct RandomSequenceTests {
  static let seeds: [UInt64] = (0..<150).map { 0xB1D6_E000 &+ UInt64($0) }
  static let eventPool: [ControlEvents] = [
    .touchDown, .touchUpInside, .valueChanged, .editingChanged, .primaryActionTriggered,
  ]

  @Test("installed trampolines always equal the events with a registered handler")
  func trampolinesFollowTheRegistry() {
    for seed in Self.seeds {
      var run = SequenceRun(seed: seed, observed: seed % 2 == 0)
      for step in 0..<80 {
        run.step()
        run.check(step: step)
      }
      run.releaseTheControl()
    }
  }
}

/// One seeded run: the fake, its mirror, and the model.
@MainActor
struct SequenceRun {
  /// A registry entry as the documented rules describe it.
  struct ModelEntry {
    let id: RegistrationID
    let kind: Kind
    let identifier: String?
    var events: ControlEvents
    /// The owner or target index, for anchored entries.
    let anchor: Int?
  }
  enum Kind { case closure, targetAction }

  let seed: UInt64
  var random: SeededGenerator
  var button: FakePlatformControl? = FakePlatformControl()
  let log = FireLog()
  let observed: Bool
  var model: [ModelEntry] = []
  var owners: [Owner?] = (0..<3).map { _ in Owner() }
  var tokens: [Registration] = []
  let calls = CallCounts()
  var expectedCalls: [RegistrationID: Int] = [:]
  var expectedFires = 0

  init(seed: UInt64, observed: Bool) {
    self.seed = seed
    self.random = SeededGenerator(seed: seed)
    self.observed = observed
    if observed { button!.sleeve.control.observer = log }
  }

  var mirror: Control { button!.sleeve.control }

  mutating func events() -> ControlEvents {
    if Int.random(in: 0..<20, using: &random) == 0 { return [] }
    var events = ControlEvents()
    for _ in 0..<Int.random(in: 1...2, using: &random) {
      events.formUnion(RandomSequenceTests.eventPool.randomElement(using: &random)!)
    }
    return events
  }

  mutating func identifier() -> String? {
    ["a", "b", "c", nil].randomElement(using: &random)!
  }

  mutating func step() {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<22: addClosure(owner: nil)
    case 22..<34: addClosure(owner: Int.random(in: 0..<owners.count, using: &random))
    case 34..<44: addTarget()
    case 44..<54: removeAction()
    case 54..<60: removeTarget()
    case 60..<72: cancel()
    case 72..<78: releaseOwner()
    case 78..<80: #expect(button!.sleeve === ControlBridge.bridge(for: button!), "seed \(seed)")
    default: send()
    }
  }

  mutating func addClosure(owner: Int?) {
    let events = events()
    let identifier = identifier()
    let counts = calls
    let slot = RegistrationSlot()
    let token: Registration
    switch owner {
    case nil:
      token = mirror.on(events, id: identifier) { _ in counts.note(slot.id) }
    case let owner?:
      guard let object = owners[owner] else { return }
      token = mirror.on(events, id: identifier, owner: object) { _, _ in counts.note(slot.id) }
    }
    slot.id = token.id
    tokens.append(token)
    guard !events.isEmpty else { return }
    let entry = ModelEntry(
      id: token.id, kind: .closure, identifier: identifier, events: events, anchor: owner)
    if let identifier,
      let index = model.firstIndex(where: { $0.kind == .closure && $0.identifier == identifier })
    {
      model[index] = entry
    } else {
      model.append(entry)
    }
  }

  mutating func addTarget() {
    let target = Int.random(in: 0..<owners.count, using: &random)
    guard let object = owners[target] else { return }
    let events = events()
    let identifier = identifier()
    let token = mirror.addTarget(object, action: Owner.didSend, id: identifier, for: events)
    tokens.append(token)
    guard !events.isEmpty else { return }
    if let identifier,
      let index = model.firstIndex(where: {
        $0.kind == .targetAction && $0.identifier == identifier && $0.anchor == target
      })
    {
      model[index].events.formUnion(events)
    } else {
      model.append(
        ModelEntry(
          id: token.id, kind: .targetAction, identifier: identifier, events: events,
          anchor: target))
    }
  }

  mutating func removeAction() {
    guard let identifier = identifier() else { return }
    let events = events()
    mirror.removeAction(identifiedBy: identifier, for: events)
    subtract(events) { $0.kind == .closure && $0.identifier == identifier }
  }

  mutating func removeTarget() {
    let target: Int? = Bool.random(using: &random) ? nil : Int.random(in: 0..<3, using: &random)
    let identifier = identifier()
    let events = events()
    let object: AnyObject? = target.flatMap { owners[$0] }
    if target != nil && object == nil { return }
    mirror.removeTarget(object, action: identifier, for: events)
    subtract(events) {
      $0.kind == .targetAction && (target == nil || $0.anchor == target)
        && (identifier == nil || $0.identifier == identifier)
    }
  }

  mutating func subtract(_ events: ControlEvents, where predicate: (ModelEntry) -> Bool) {
    for index in model.indices.reversed() where predicate(model[index]) {
      model[index].events.subtract(events)
      if model[index].events.isEmpty { model.remove(at: index) }
    }
  }

  mutating func cancel() {
    guard let token = tokens.randomElement(using: &random) else { return }
    token.cancel()
    model.removeAll { $0.id == token.id }
  }

  mutating func releaseOwner() {
    let index = Int.random(in: 0..<owners.count, using: &random)
    owners[index] = nil
  }

  /// A platform send: one mirror fire per installed trampoline the send reaches, each pruning
  /// the handlers whose owner is gone and calling the others once.
  mutating func send() {
    let sent = events()
    let reached = button!.trampolines.filter { $0.events.intersects(sent) }.map(\.events)
    for event in reached {
      expectedFires += 1
      let visited = model.filter { $0.events.intersects(event) }
      for entry in visited {
        if let anchor = entry.anchor, owners[anchor] == nil {
          model.removeAll { $0.id == entry.id }
        } else if entry.kind == .closure {
          expectedCalls[entry.id, default: 0] += 1
        }
      }
    }
    if Bool.random(using: &random) {
      button!.sendActions(for: sent)
    } else {
      button!.touch(sent)
    }
  }

  func check(step: Int) {
    let context = Comment(rawValue: "seed \(seed) step \(step)")
    let expected = model.reduce(into: ControlEvents()) { $0.formUnion($1.events) }
    let trampolines = button!.trampolines
    #expect(button!.trampolineEvents == expected, context)
    #expect(mirror.registeredEvents == expected, context)
    #expect(button!.sleeve.installedEvents == expected, context)
    #expect(Set(trampolines.map(\.identifier)).count == trampolines.count, context)
    for trampoline in trampolines {
      #expect(trampoline.events.singleEvents == [trampoline.events], context)
      #expect(trampoline.identifier == "sleeve.\(trampoline.events.rawValue)", context)
    }
    #expect(calls.counts == expectedCalls.filter { $0.value > 0 }, context)
    if observed { #expect(log.fires.count == expectedFires, context) }
  }

  /// Releases the platform control: the bridge and mirror go, and every handler still
  /// registered is removed as `ownerReleased`.
  mutating func releaseTheControl() {
    weak let weakBridge = button!.sleeve
    weak let weakMirror = button!.sleeve.control
    let before = log.removals.count
    button = nil
    let context = Comment(rawValue: "seed \(seed)")
    #expect(weakBridge == nil, context)
    #expect(weakMirror == nil, context)
    if observed {
      let released = log.removals[before...].filter { $0.reason == .ownerReleased }
      #expect(released.count == model.count, context)
    }
  }
}

/// Handler calls by registration, as handlers report them.
@MainActor
final class CallCounts {
  private(set) var counts: [RegistrationID: Int] = [:]

  func note(_ id: RegistrationID?) {
    guard let id else { return }
    counts[id, default: 0] += 1
  }
}

/// The registration a handler belongs to, known once its registration returned.
@MainActor
final class RegistrationSlot {
  var id: RegistrationID?
}
