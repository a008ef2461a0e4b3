/// The events a control's registry answers, and a watch on them: what a bridge to a platform
/// control needs to keep exactly one platform trampoline per answered event.
extension Control {
  /// The union of the events of every registered handler, closures and target-actions alike.
  ///
  /// Unlike ``allControlEvents``, a handler whose owner or target is gone still counts until
  /// a fire prunes it (outcome `ownerReleased`): it is registered until then, and that fire
  /// has to reach it.
  package var registeredEvents: ControlEvents {
    var events = ControlEvents()
    for slot in registry.slots { events.formUnion(slot.events) }
    return events
  }

  /// Calls `onChange` with the new ``registeredEvents`` after every registry change that
  /// changes them: an add, a replacement, a change of events, a cancellation, a removal, or a
  /// handler pruned because its owner is gone (also in the middle of a fire). It is not called
  /// for the current value, nor for changes that leave the union as it was.
  ///
  /// One watcher per control: setting one replaces the last; `nil` removes it. Controls
  /// without a watcher pay one test per registry change and nothing per fire.
  package func watchRegisteredEvents(_ onChange: (@MainActor (ControlEvents) -> Void)?) {
    registeredEventsWatch = onChange.map {
      RegisteredEventsWatch(lastReported: registeredEvents, onChange: $0)
    }
  }

  /// Removes every handler with reason `ownerReleased` and cancels their running tasks, as
  /// when what the control stands for is gone (a bridged platform control was deallocated).
  /// Observers see each removal, in registration order.
  package func releaseAllHandlers() {
    while registry.count > 0 {
      remove(registry[0], reason: .ownerReleased)
    }
  }

  /// Tells the watcher, if any, about a registry change that moved ``registeredEvents``.
  func registryDidChange() {
    guard let watch = registeredEventsWatch else { return }
    let events = registeredEvents
    guard events != watch.lastReported else { return }
    registeredEventsWatch?.lastReported = events
    watch.onChange(events)
  }
}

/// A watcher of ``Control/registeredEvents`` and the value it last heard.
struct RegisteredEventsWatch {
  var lastReported: ControlEvents
  let onChange: @MainActor (ControlEvents) -> Void
}
