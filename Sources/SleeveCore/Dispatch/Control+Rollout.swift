/// Assigning a fire's unit to a percentage rollout's variant (``RolloutHash``).
extension Control {
  /// The unit's assignment for flag `key` as `flags` defines its rollout: no allocation, one
  /// pass of the hash over the key, the salt and the unit.
  func rolloutAssignment(
    of key: String, by flags: any FlagProvider, in observed: ObservedFire?
  ) -> FlagEvaluation.Rollout {
    let plan = flags.definition(of: key)?.rollout ?? .none
    let unit = plan.effectiveUnit
    let prefix = RolloutHash.prefix(key: key, salt: plan.salt)
    let state: UInt64?
    switch unit {
    case .fire:
      state = RolloutHash.absorb(RolloutHash.processNonce &+ fireUnit(observed), into: prefix)
    case .session:
      if let text = observed?.observer.rolloutSessionUnit {
        state = RolloutHash.absorb(text, into: prefix)
      } else {
        state = RolloutHash.absorb(RolloutHash.processNonce, into: prefix)
      }
    case .key(let name):
      state = flags.unitKey(named: name).map { RolloutHash.absorb($0, into: prefix) }
    }
    return FlagEvaluation.Rollout(unit: unit, assignment: state.map(RolloutHash.finalize))
  }

  /// The fire's unit number: an observed fire's id; for an unobserved fire, a fire id drawn
  /// the first time it is needed and kept for the rest of the fire.
  private func fireUnit(_ observed: ObservedFire?) -> UInt64 {
    if let observed { return observed.fire.id.rawValue }
    if FireNesting.unobservedFireUnit == 0 {
      FireNesting.unobservedFireUnit = IdentifierCounter.nextFire().rawValue
    }
    return FireNesting.unobservedFireUnit
  }
}
