import SleeveCore

/// The bridge between one platform control and the Sleeve ``Control`` that mirrors it.
///
/// Handlers are registered on ``control`` (or with ``PlatformControlPort/on(_:id:file:line:_:)``
/// on the platform control itself), so Sleeve's ordering, snapshot rules, outcomes, flags and
/// recorder apply unchanged. The bridge keeps exactly one platform trampoline installed for
/// each event that at least one registered handler answers: it installs it when the first
/// handler for that event appears and removes it when the last one goes. One platform send of
/// an event is one fire of the mirror.
///
/// The platform control owns its bridge through an anchor
/// (``PlatformControlPort/sleeveBridgeAnchor``) and the bridge holds the platform control
/// weakly: no cycle. When the platform control is deallocated, its anchor goes with it and
/// every handler of the mirror ends with reason `ownerReleased`, which a recording session
/// records, even when the app still holds the bridge or its mirror.
@MainActor
public final class ControlBridge {
  /// The Sleeve control mirroring the platform control.
  public let control: Control
  /// Whether ``naming`` named the mirror. A mirror it did not name starts with no observer:
  /// its handlers run, nothing reads the clock and nothing is recorded, unless the app gives
  /// the mirror an observer itself (``Control/observer``, `RecordingSession.attach`).
  public let isNamed: Bool
  /// Whether the mirror has an observer now: what it does is being recorded or watched.
  public var isRecorded: Bool { control.observer != nil }
  /// The platform control, while it lives.
  public private(set) weak var port: (any PlatformControlPort)?
  /// The events whose trampolines are installed on the platform control now.
  public private(set) var installedEvents = ControlEvents()

  /// The bridge of `port`, made and stored in the port on first use; every later call returns
  /// the same bridge. The mirror is named by ``naming`` when the bridge is made, so set the
  /// control's accessibility identifier before first use.
  public static func bridge(for port: some PlatformControlPort) -> ControlBridge {
    if let anchor = port.sleeveBridgeAnchor { return anchor.bridge }
    let bridge = ControlBridge(port: port)
    port.sleeveBridgeAnchor = ControlBridgeAnchor(bridge)
    return bridge
  }

  private init(port: some PlatformControlPort) {
    let identity = PlatformControlIdentity(
      typeName: port.platformTypeName, accessibilityIdentifier: port.platformAccessibilityIdentifier
    )
    let name = Self.naming(identity)
    self.isNamed = name != nil
    self.control = Control(
      name: name ?? identity.typeName, kind: identity.typeName,
      observer: name == nil ? NoOpDispatchObserver() : nil)
    self.port = port
    control.watchRegisteredEvents { [weak self] events in self?.installTrampolines(for: events) }
  }

  /// The platform control is gone: no trampoline is left to follow, and every handler of
  /// the mirror ends as `ownerReleased` (their tasks cancelled).
  func platformControlWentAway() {
    control.watchRegisteredEvents(nil)
    installedEvents = []
    control.releaseAllHandlers()
  }

  /// One platform send of `event`: a fire of the mirror. An enabled control's send is an
  /// interaction; a disabled control takes no touches, so its send is programmatic
  /// (`sendActions(for:)` on the platform control), which runs the handlers as UIKit does.
  func platformSent(_ event: ControlEvents) {
    guard let port else { return }
    let isEnabled = port.isEnabled
    control.isEnabled = isEnabled
    if isEnabled {
      control.sendInteraction(for: event)
    } else {
      control.sendActions(for: event)
    }
  }

  /// Makes the installed trampolines exactly one per event in `events`.
  private func installTrampolines(for events: ControlEvents) {
    guard let port else { return }
    for event in installedEvents.subtracting(events).singleEvents {
      installedEvents.remove(event)
      port.removeTrampoline(identifiedBy: PlatformTrampoline.identifier(for: event), for: event)
    }
    for event in events.subtracting(installedEvents).singleEvents {
      installedEvents.insert(event)
      port.installTrampoline(PlatformTrampoline(event: event, bridge: self))
    }
  }
}
