/// The user interaction in progress, if any: the fires a gesture sends join it, so an
/// observer learns which fires were one interaction.
///
/// Interactions run synchronously on the main actor, so this is plain main-actor state. A
/// handler that starts an interaction of its own (a nested `tap()`) opens a new scope; the
/// outer one is restored when it ends.
@MainActor
enum InteractionScope {
  /// An interaction begun and not yet ended.
  struct Open {
    let id: InteractionID
    let control: ObjectIdentifier
    let depth: Int
    let gesture: String
    let wasEnabled: Bool
    let observer: any DispatchObserver
    /// The control's ``Control/observerChanges`` when it began.
    let observerChanges: UInt64
    let atNanoseconds: Int64
    var firstFire: FireID?
    var lastFire: FireID?
    var fireCount = 0
  }

  /// The innermost open interaction.
  static var current: Open?

  /// Whether a fire of `control` sent now, at the current nesting depth, belongs to the open
  /// interaction.
  static func isOpen(for control: Control) -> Bool {
    guard let current else { return false }
    return current.control == ObjectIdentifier(control) && current.depth == FireNesting.depth + 1
  }

  /// Counts `fire` into the open interaction when it belongs there: a fire sent after the
  /// control's observer changed went to another observer, so it is not one of the fires the
  /// interaction's observer saw (the interaction is reported to the observer it began with,
  /// with the fires that observer recorded).
  static func note(_ fire: FireInfo, of control: Control) {
    guard fire.origin == .interaction, isOpen(for: control),
      current?.observerChanges == control.observerChanges
    else { return }
    if current?.firstFire == nil { current?.firstFire = fire.id }
    current?.lastFire = fire.id
    current?.fireCount += 1
  }
}

extension Control {
  /// Runs `body` as one user interaction named `gesture`: every ``sendInteraction(for:)`` of
  /// this control inside it (at this nesting depth) is a fire of the same interaction, and the
  /// observer hears ``DispatchObserver/interactionEnded(_:)`` once, after the last of them.
  ///
  /// `tap()`, `toggle()` and `type(_:)` are built on it; a custom control uses it for a
  /// gesture that sends several events. Inside an interaction of the same control it only
  /// runs `body` (the fires join the open one). Unobserved, it only runs `body`.
  ///
  /// ```swift
  /// final class Stepper: Control {
  ///   func longPress() {
  ///     performInteraction("longPress") {
  ///       sendInteraction(for: .touchDown)
  ///       sendInteraction(for: .valueChanged)
  ///       sendInteraction(for: .touchUpInside)
  ///     }
  ///   }
  /// }
  /// ```
  public func performInteraction(_ gesture: String, _ body: () -> Void) {
    guard isObserved, let activeObserver, !InteractionScope.isOpen(for: self) else {
      body()
      return
    }
    let outer = InteractionScope.current
    InteractionScope.current = InteractionScope.Open(
      id: IdentifierCounter.nextInteraction(), control: ObjectIdentifier(self),
      depth: FireNesting.depth + 1, gesture: gesture, wasEnabled: isEnabled,
      observer: activeObserver, observerChanges: observerChanges,
      atNanoseconds: MonotonicClock.nanoseconds())
    body()
    let ended = InteractionScope.current
    InteractionScope.current = outer
    guard let ended, let first = ended.firstFire, let last = ended.lastFire else { return }
    ended.observer.interactionEnded(
      InteractionInfo(
        id: ended.id, control: info, gesture: ended.gesture, wasEnabled: ended.wasEnabled,
        depth: ended.depth, firstFire: first, lastFire: last, fireCount: ended.fireCount,
        atNanoseconds: ended.atNanoseconds, endedAtNanoseconds: MonotonicClock.nanoseconds()))
  }
}
