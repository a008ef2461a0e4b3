import SleeveCore
import Testing

/// A provider that is not an ``InMemoryFlagProvider``: asked for its definition and unit key
/// at every fire.
private struct FixedFlagProvider: FlagProvider {
  let flagState: FlagState
  let flagDefinition: FlagDefinition
  let unitKeys: [String: String]
  func state(of key: String) -> FlagState? { key == flagDefinition.key ? flagState : nil }
  func definition(of key: String) -> FlagDefinition? {
    key == flagDefinition.key ? flagDefinition : nil
  }
  func unitKey(named name: String) -> String? { unitKeys[name] }
}

@MainActor
@Suite("Rollout inputs kept by the in-memory provider")
struct RolloutInputsTests {
  private static let half = RolloutPercentage(basisPoints: 5_000)!

  private static func definition(unit: RolloutUnit?, salt: String) -> FlagDefinition {
    FlagDefinition(
      key: "new-checkout", owner: "payments", rollout: RolloutPlan(unit: unit, salt: salt))
  }

  /// The assignment the documented hash gives a text unit.
  private static func expected(salt: String, unit: String) -> UInt64 {
    RolloutHash.hash(key: "new-checkout", salt: salt, unit: .text(unit))
  }

  /// The assignment hash one fire of a gated handler on `flags` recorded.
  private func firedAssignment(_ flags: any FlagProvider) -> UInt64?? {
    let observer = RecordingObserver()
    let button = Button(name: "pay", observer: observer, flags: flags)
    button.on(.touchUpInside, flag: "new-checkout", fallback: { _ in }) { _ in }
    button.sendActions(for: .touchUpInside)
    return observer.outcomes.last?.flag?.rollout.map(\.assignment)
  }

  @Test("a unit key set before its flag is defined is hashed into the definition's inputs")
  func unitKeySetBeforeDefinitionIsUsed() {
    let flags = InMemoryFlagProvider(["new-checkout": .rollingOut(percent: Self.half)])
    flags.setUnitKey("user-17", named: "user")
    flags.define(Self.definition(unit: .key("user"), salt: "spring"))
    #expect(firedAssignment(flags) == .some(Self.expected(salt: "spring", unit: "user-17")))
  }

  @Test("a changed or cleared unit key, a new salt and a new unit take effect at the next fire")
  func changesTakeEffectAtTheNextFire() {
    let flags = InMemoryFlagProvider(
      ["new-checkout": .rollingOut(percent: Self.half)],
      definitions: [Self.definition(unit: .key("user"), salt: "spring")])
    flags.setUnitKey("user-17", named: "user")
    #expect(firedAssignment(flags) == .some(Self.expected(salt: "spring", unit: "user-17")))
    flags.setUnitKey("user-18", named: "user")
    #expect(firedAssignment(flags) == .some(Self.expected(salt: "spring", unit: "user-18")))
    flags.setUnitKey("device-1", named: "device")
    #expect(
      firedAssignment(flags) == .some(Self.expected(salt: "spring", unit: "user-18")),
      "another key's value leaves this flag's assignment alone")
    flags.define(Self.definition(unit: .key("user"), salt: "autumn"))
    #expect(firedAssignment(flags) == .some(Self.expected(salt: "autumn", unit: "user-18")))
    flags.define(Self.definition(unit: .key("device"), salt: "autumn"))
    #expect(firedAssignment(flags) == .some(Self.expected(salt: "autumn", unit: "device-1")))
    flags.setUnitKey(nil, named: "device")
    #expect(firedAssignment(flags) == .some(nil), "a cleared key is unassigned")
  }

  @Test(
    "another provider's rollout is assigned as the in-memory provider assigns it",
    arguments: [RolloutUnit.key("user"), .key("device"), .session])
  func otherProvidersAssignAlike(unit: RolloutUnit) {
    let definition = Self.definition(unit: unit, salt: "spring")
    let state = FlagState.rollingOut(percent: Self.half)
    let memory = InMemoryFlagProvider(["new-checkout": state], definitions: [definition])
    memory.setUnitKey("user-17", named: "user")
    let other = FixedFlagProvider(
      flagState: state, flagDefinition: definition, unitKeys: ["user": "user-17"])
    let inMemory = firedAssignment(memory)
    #expect(inMemory != nil)
    #expect(firedAssignment(other) == inMemory)
  }
}
