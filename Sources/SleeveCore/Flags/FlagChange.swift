/// One change of a flag's state, as delivered to ``DispatchObserver/flagChanged(_:)``.
public struct FlagChange: Hashable, Sendable {
  /// The flag's key.
  public let key: String
  /// The state before the change, or `nil` when the flag had none.
  public let previous: FlagState?
  /// The state after the change.
  public let state: FlagState
  /// Who made the change (a person, a CI job, `sleeve check --apply`), when known.
  public let actor: String?
  /// The flag's definition at the time of the change, when the provider has one.
  public let definition: FlagDefinition?
  /// When the change happened, in ``MonotonicClock`` nanoseconds.
  public let atNanoseconds: Int64

  /// Creates a change record.
  public init(
    key: String, previous: FlagState?, state: FlagState, actor: String?,
    definition: FlagDefinition?, atNanoseconds: Int64
  ) {
    self.key = key
    self.previous = previous
    self.state = state
    self.actor = actor
    self.definition = definition
    self.atNanoseconds = atNanoseconds
  }
}
