/// The nesting state of fires in progress, across all controls (A -> B -> A is runaway too).
///
/// Fires run synchronously on the main actor, so this is plain main-actor state. An unobserved
/// fire touches only ``depth``: what else a fire needs (a rollout's fire unit) is its own.
@MainActor
enum FireNesting {
  /// How many fires are running, outermost included.
  static var depth = 0
  /// The innermost observed fire in progress and the ``depth`` it runs at.
  static var observedFire: (id: FireID, depth: Int)?
  /// Fires deeper than this are refused.
  static var limit = 32

  /// The parent of a fire beginning now: the innermost fire in progress, when it is observed.
  /// A fire nested in an unobserved fire has none, even inside an observed one further out.
  static var parentOfNextFire: FireID? {
    guard let observedFire, observedFire.depth == depth else { return nil }
    return observedFire.id
  }
}
