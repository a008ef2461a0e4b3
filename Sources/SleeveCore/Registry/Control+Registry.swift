/// The registry's mutations: add, replace by id, change events, remove. Every mutation is
/// reported to the observer, and none touches an entry a fire may still be visiting: entries
/// leave by being retired, so a fire's snapshot sees them as removed.
extension Control {
  /// Adds `entry` at the end, or in place of the closure entry with the same `identifier`.
  func register(_ entry: HandlerEntry) -> Registration {
    if let identifier = entry.identifier, entry.kind == .closure,
      let index = registry.firstIndex(where: {
        $0.kind == .closure && $0.identifier == identifier
      })
    {
      let replaced = registry[index]
      retire(replaced)
      registry.replace(at: index, with: entry)
      reportRemoval(of: replaced.id, reason: .replaced)
      activeObserver?.registered(info(for: entry, change: .added, replacing: replaced.id))
    } else {
      registry.append(entry)
      activeObserver?.registered(info(for: entry, change: .added))
    }
    registryDidChange()
    return Registration(id: entry.id, control: self)
  }

  /// Gives the entry at `index` a new mask (a successor entry in the same place), or removes
  /// it when the mask is empty.
  func changeEvents(at index: Int, to events: ControlEvents) {
    let entry = registry[index]
    guard !events.isEmpty else {
      remove(at: index, reason: .removed)
      return
    }
    guard events != entry.events else { return }
    let successor = entry.withEvents(events)
    entry.successor = successor
    entry.isRetired = true
    registry.replace(at: index, with: successor)
    activeObserver?.registered(info(for: successor, change: .eventsChanged))
    registryDidChange()
  }

  /// Takes `events` away from every entry that matches `predicate` and intersects them;
  /// entries left with no events are removed.
  func subtract(_ events: ControlEvents, where predicate: (HandlerEntry) -> Bool) {
    var index = registry.count - 1
    while index >= 0 {
      let entry = registry[index]
      if entry.events.intersects(events) && predicate(entry) {
        changeEvents(at: index, to: entry.events.subtracting(events))
      }
      index -= 1
    }
  }

  /// Removes the registration with `id`, if present.
  func removeRegistration(_ id: RegistrationID, reason: RemovalReason) {
    guard let index = registry.firstIndex(where: { $0.id == id }) else { return }
    remove(at: index, reason: reason)
  }

  /// Removes `entry` if it is still in the registry.
  func remove(_ entry: HandlerEntry, reason: RemovalReason) {
    guard let index = registry.firstIndex(where: { $0 === entry }) else { return }
    remove(at: index, reason: reason)
  }

  private func remove(at index: Int, reason: RemovalReason) {
    let entry = registry.remove(at: index)
    retire(entry)
    reportRemoval(of: entry.id, reason: reason)
    registryDidChange()
  }

  private func retire(_ entry: HandlerEntry) {
    entry.isRetired = true
    cancelTasks(of: entry.id)
  }

  private func reportRemoval(of id: RegistrationID, reason: RemovalReason) {
    guard let activeObserver else { return }
    activeObserver.removed(
      RemovalInfo(
        id: id, control: info, reason: reason, atNanoseconds: MonotonicClock.nanoseconds()))
  }

  /// What observers learn about `entry`.
  func info(
    for entry: HandlerEntry, change: RegistrationInfo.Change, replacing: RegistrationID? = nil
  ) -> RegistrationInfo {
    RegistrationInfo(
      id: entry.id, control: info, events: entry.events, kind: entry.kind,
      isAsync: entry.primary.isAsync || entry.fallback?.isAsync == true,
      identifier: entry.identifier, flagKey: entry.flagKey,
      anchorType: entry.anchorType.map { String(describing: $0) },
      site: entry.site.description, change: change, replaced: replacing,
      atNanoseconds: MonotonicClock.nanoseconds())
  }
}
