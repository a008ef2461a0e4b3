/// A provider's rollout inputs kept ahead of the fires: each defined flag's
/// ``RolloutHash/Inputs`` and the app's unit keys, rehashed when a definition or a unit key it
/// reads changes, so ``FlagProvider/rolloutInputs(of:)`` is one lookup. The one home of that
/// bookkeeping for every provider that keeps definitions (``InMemoryFlagProvider``,
/// `DatabaseFlagProvider`); a value type, guarded by its owner's lock.
package struct RolloutInputsTable: Sendable {
  private var inputs: [String: RolloutHash.Inputs] = [:]
  private var unitKeys: [String: String] = [:]

  /// An empty table: no definitions, no unit keys.
  package init() {}

  /// The inputs of flag `key` (its definition's, else ``RolloutPlan/none``'s, hashed now).
  package func inputs(of key: String) -> RolloutHash.Inputs {
    inputs[key] ?? RolloutHash.Inputs(key: key, plan: .none)
  }

  /// The value set for unit key `name`, if any.
  package func unitKey(named name: String) -> String? { unitKeys[name] }

  /// Adds or replaces the inputs of `definition`, stored under `key` (the provider's lookup
  /// key), hashed with the unit key it reads as set now.
  package mutating func define(_ definition: FlagDefinition, as key: String) {
    var defined = RolloutHash.Inputs(key: definition.key, plan: definition.rollout)
    if let name = defined.unitKeyName { defined.setUnitKey(unitKeys[name]) }
    inputs[key] = defined
  }

  /// Replaces every definition's inputs, keeping the unit keys.
  package mutating func replaceDefinitions(_ definitions: [String: FlagDefinition]) {
    inputs = [:]
    for (key, definition) in definitions { define(definition, as: key) }
  }

  /// Sets (or clears) unit key `name` and rehashes the inputs that read it: one pass over the
  /// defined flags (a fire costs the same whatever their number).
  package mutating func setUnitKey(_ value: String?, named name: String) {
    unitKeys[name] = value
    for (key, defined) in inputs where defined.unitKeyName == name {
      inputs[key]?.setUnitKey(value)
    }
  }
}
