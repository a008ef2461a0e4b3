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
}

extension FlagProvider {
  /// No definitions by default.
  public func definition(of key: String) -> FlagDefinition? { nil }
  /// No unit keys by default.
  public func unitKey(named name: String) -> String? { nil }
}
