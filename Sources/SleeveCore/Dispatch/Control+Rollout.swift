/// Assigning a fire's unit to a percentage rollout's variant (``RolloutHash``).
extension Control {
  /// The unit's assignment for flag `key` as `flags` defines its rollout: no allocation, one
  /// pass of the hash over the unit. An ``InMemoryFlagProvider`` keeps each definition's
  /// ``RolloutHash/Inputs`` (its key and salt, and a key unit's value, already hashed); another
  /// provider's definition and unit key are asked for and hashed at each fire.
  func rolloutAssignment(
    of key: String, by flags: any FlagProvider, in observed: ObservedFire?
  ) -> FlagEvaluation.Rollout {
    let inputs: RolloutHash.Inputs
    if let memory = Self.inMemory(flags) {
      inputs = memory.rolloutInputs(of: key)
    } else {
      inputs = Self.inputs(of: key, askedOf: flags)
    }
    let prefix = inputs.prefix
    let state: UInt64?
    switch inputs.unit {
    case .fire:
      // An unobserved fire never touches `observed` (copying the optional costs more than
      // the hash).
      let number = observed == nil ? unobservedFireUnit() : observedFireUnit(observed)
      state = RolloutHash.absorb(RolloutHash.processNonce &+ number, into: prefix)
    case .session:
      if observed != nil, let text = observed?.observer.rolloutSessionUnit {
        state = RolloutHash.absorb(text, into: prefix)
      } else {
        state = RolloutHash.absorb(RolloutHash.processNonce, into: prefix)
      }
    case .key:
      state = inputs.keyed
    }
    return FlagEvaluation.Rollout(
      unit: inputs.unit, assignment: state.map(RolloutHash.finalize))
  }

  /// `flags` itself when it is an ``InMemoryFlagProvider`` (a final class, so its exact type):
  /// a comparison of type metadata, where `as?` would run the runtime's dynamic cast. Once
  /// `Provider` is known to be that class, `flags` is stored as one reference to it, which the
  /// load copies (retains) like any other read of it.
  @inline(__always)
  private static func inMemory<Provider: FlagProvider>(_ flags: Provider)
    -> InMemoryFlagProvider?
  {
    guard Provider.self == InMemoryFlagProvider.self else { return nil }
    return withUnsafePointer(to: flags) {
      UnsafeRawPointer($0).load(as: InMemoryFlagProvider.self)
    }
  }

  /// The inputs of flag `key` from any other provider: its definition and unit key, asked
  /// for and hashed at each fire.
  private static func inputs(of key: String, askedOf flags: any FlagProvider)
    -> RolloutHash.Inputs
  {
    var inputs: RolloutHash.Inputs
    switch flags.definition(of: key) {
    case .some(let definition): inputs = RolloutHash.Inputs(key: key, plan: definition.rollout)
    case .none: inputs = RolloutHash.Inputs(key: key, plan: .none)
    }
    if let name = inputs.unitKeyName { inputs.setUnitKey(flags.unitKey(named: name)) }
    return inputs
  }

  /// An observed fire's unit number: its id.
  private func observedFireUnit(_ observed: ObservedFire?) -> UInt64 {
    observed?.fire.id.rawValue ?? 0
  }

  /// An unobserved fire's unit number: a fire id drawn the first time it is needed and kept
  /// for the rest of the fire.
  private func unobservedFireUnit() -> UInt64 {
    let drawn = FireNesting.unobservedFireUnit
    guard drawn == 0 else { return drawn }
    let unit = IdentifierCounter.nextFire().rawValue
    FireNesting.unobservedFireUnit = unit
    return unit
  }
}
