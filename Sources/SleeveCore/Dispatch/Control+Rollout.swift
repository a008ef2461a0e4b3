/// Assigning a fire's unit to a percentage rollout's variant (``RolloutHash``).
extension Control {
  /// The unit's assignment for flag `key` as `flags` defines its rollout: no allocation, one
  /// pass of the hash over the unit, the key and salt (and a key unit's value) being hashed
  /// ahead by the provider (``FlagProvider/rolloutInputs(of:)``).
  func rolloutAssignment(
    of key: String, by flags: any FlagProvider, in observed: ObservedFire?,
    fireUnit: inout UInt64
  ) -> FlagEvaluation.Rollout {
    let inputs = flags.rolloutInputs(of: key)
    let prefix = inputs.prefix
    let state: UInt64?
    switch inputs.unit {
    case .fire:
      // An unobserved fire never touches `observed` (copying the optional costs more than
      // the hash).
      let number = observed == nil ? unobservedFireUnit(&fireUnit) : observedFireUnit(observed)
      state = RolloutHash.absorb(RolloutHash.processNonce &+ number, into: prefix)
    case .session:
      if observed != nil, let text = observed?.observation.session.rolloutSessionUnit {
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

  /// An observed fire's unit number: its id.
  private func observedFireUnit(_ observed: ObservedFire?) -> UInt64 {
    observed?.fire.id.rawValue ?? 0
  }

  /// An unobserved fire's unit number: a fire id drawn the first time one of its handlers
  /// needs it (`fireUnit` 0: not drawn yet) and kept in the fire's `fireUnit` for the rest of
  /// the fire, so every gated handler of one fire shares its variant.
  private func unobservedFireUnit(_ fireUnit: inout UInt64) -> UInt64 {
    if fireUnit == 0 { fireUnit = IdentifierCounter.nextFire().rawValue }
    return fireUnit
  }
}
