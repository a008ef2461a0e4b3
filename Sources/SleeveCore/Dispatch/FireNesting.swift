/// The nesting state of fires in progress, across all controls (A -> B -> A is runaway too).
///
/// Fires run synchronously on the main actor, so this is plain main-actor state.
@MainActor
enum FireNesting {
  /// How many fires are running, outermost included.
  static var depth = 0
  /// The innermost observed fire, the parent of the next nested one.
  static var currentFire: FireID?
  /// The unit number of the innermost unobserved fire, drawn the first time a rollout by
  /// ``RolloutUnit/fire`` needs it (0: not drawn yet), so every gated handler of one fire
  /// shares its variant.
  static var unobservedFireUnit: UInt64 = 0
  /// Fires deeper than this are refused.
  static var limit = 32
}
