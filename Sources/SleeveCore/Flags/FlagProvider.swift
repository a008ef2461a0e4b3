/// Answers a flag's state at the moment a gated handler fires.
///
/// Called on the main actor for every fire of a gated handler, so it must be fast and must not
/// block. A provider that does not know a key returns `nil`, which serves the `off` variant:
/// new code stays off until someone turns it on.
public protocol FlagProvider: Sendable {
  /// The flag's current state, or `nil` when this provider does not know it.
  func state(of key: String) -> FlagState?
  /// The flag's definition, or `nil` when this provider has none.
  func definition(of key: String) -> FlagDefinition?
  /// The value the app supplies for the rollout unit key `name` (``RolloutUnit/key(_:)``,
  /// e.g. the signed-in user's id for `user`), or `nil` while it has none.
  func unitKey(named name: String) -> String?
  /// What assigning a unit to flag `key`'s percentage rollout needs, hashed ahead of the
  /// fires (``RolloutHash/Inputs``): called for every fire of a handler the flag gates while it
  /// is rolling out. The default asks ``definition(of:)`` and ``unitKey(named:)`` and hashes
  /// their answers at each fire; a provider that keeps the inputs of each definition (as
  /// ``InMemoryFlagProvider`` and `DatabaseFlagProvider` do) answers in one lookup.
  func rolloutInputs(of key: String) -> RolloutHash.Inputs
}

extension FlagProvider {
  /// No definitions by default.
  public func definition(of key: String) -> FlagDefinition? { nil }
  /// No unit keys by default.
  public func unitKey(named name: String) -> String? { nil }

  /// The inputs from ``definition(of:)`` (``RolloutPlan/none`` without one) and, for a key
  /// unit, ``unitKey(named:)``, hashed now.
  public func rolloutInputs(of key: String) -> RolloutHash.Inputs {
    var inputs: RolloutHash.Inputs
    switch definition(of: key) {
    case .some(let definition): inputs = RolloutHash.Inputs(key: key, plan: definition.rollout)
    case .none: inputs = RolloutHash.Inputs(key: key, plan: .none)
    }
    if let name = inputs.unitKeyName { inputs.setUnitKey(unitKey(named: name)) }
    return inputs
  }
}
