/// Target-action without selectors: a weakly held target and a curried method.
extension ControlHandling {
  /// Calls `action` on `target` for each of `events`, holding `target` weakly (as UIKit does).
  ///
  /// `action` is an unapplied method, `Target.didTap`, of a main-actor, `Sendable` or plain
  /// class, throwing or not. Swift functions have no identity, so `id` plays the selector's
  /// part: the same target with the same `id` again extends that entry's events (keeping its
  /// position and first action) instead of adding a second entry; without an `id` every call
  /// adds an entry. When `target` is gone at fire time the action is not called (outcome
  /// `ownerReleased`) and the entry is removed.
  ///
  /// ```swift
  /// submit.addTarget(model, action: CheckoutModel.didTap, id: "didTap", for: .touchUpInside)
  /// ```
  /// - Returns: A token that removes this entry alone when cancelled.
  @discardableResult
  public func addTarget<Target: AnyObject>(
    _ target: Target, action: @escaping (Target) -> (Self) throws -> Void, id: String? = nil,
    for events: ControlEvents, file: StaticString = #fileID, line: UInt = #line
  ) -> Registration {
    guard !events.isEmpty else { return .inactive() }
    if let id,
      let index = registry.firstIndex(where: {
        $0.kind == .targetAction && $0.identifier == id && $0.anchor === target
      })
    {
      let entry = registry[index]
      changeEvents(at: index, to: entry.events.union(events))
      return Registration(id: entry.id, control: self)
    }
    return add(
      makeEntry(
        events, kind: .targetAction, id: id,
        primary: .anchoredSync { try action(unsafeDowncast($0, to: Target.self))(Self.typed($1)) },
        anchor: target, file: file, line: line))
  }
}

extension Control {
  /// Removes target-action entries from `events`, with UIKit's rules: a `nil` target means
  /// every target, a `nil` action means every action of the target, and events are removed by
  /// intersection (an entry keeps the events not named). Closure handlers are never touched.
  /// Removing what was never added does nothing.
  ///
  /// - Parameters:
  ///   - target: The target, or `nil` for all targets.
  ///   - id: The action's `id`, or `nil` for all actions.
  ///   - events: The events to remove.
  public func removeTarget(_ target: AnyObject?, action id: String?, for events: ControlEvents) {
    subtract(events) { entry in
      entry.kind == .targetAction && (target == nil || entry.anchor === target)
        && (id == nil || entry.identifier == id)
    }
  }
}
