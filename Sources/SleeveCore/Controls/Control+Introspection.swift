/// Introspection in UIKit's terms. Entries whose owner or target is gone are not listed (they
/// are pruned at their next fire).
extension Control {
  /// The union of the events of every live handler, closures and target-actions alike.
  public var allControlEvents: ControlEvents {
    liveEntries.reduce(into: ControlEvents()) { $0.formUnion($1.events) }
  }

  /// The live targets of target-action entries, each once, in registration order. Closure
  /// handlers have no target and are not listed (their owners are not targets).
  public var allTargets: [AnyObject] {
    var targets: [AnyObject] = []
    for entry in liveEntries where entry.kind == .targetAction {
      guard let target = entry.anchor, !targets.contains(where: { $0 === target }) else {
        continue
      }
      targets.append(target)
    }
    return targets
  }

  /// The actions `target` has for any of `events`: each entry's `id`, or for an entry added
  /// without one, its registration site (`File.swift:42`). `nil` when there are none or
  /// `target` is `nil` (as in UIKit).
  public func actions(forTarget target: AnyObject?, forControlEvent events: ControlEvents)
    -> [String]?
  {
    guard let target else { return nil }
    let actions = liveEntries.filter {
      $0.kind == .targetAction && $0.anchor === target && $0.events.intersects(events)
    }.map { $0.identifier ?? $0.site.description }
    return actions.isEmpty ? nil : actions
  }

  /// Calls `body` for each live handler in dispatch order with its description and its
  /// target (target-actions only); set `stop` to `true` to end early.
  public func enumerateEventHandlers(
    _ body: (_ handler: RegistrationInfo, _ target: AnyObject?, _ stop: inout Bool) throws ->
      Void
  ) rethrows {
    var stop = false
    for entry in liveEntries {
      let target = entry.kind == .targetAction ? entry.anchor : nil
      try body(info(for: entry, change: .existing), target, &stop)
      if stop { return }
    }
  }

  private var liveEntries: [HandlerEntry] { registry.entries.filter { !$0.anchorIsGone } }
}
