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
/// The platform control owns its bridge (``PlatformControlPort/sleeveBridgeStorage``) and the
/// bridge holds the platform control weakly: no cycle. When the platform control is
/// deallocated, its bridge goes with it and every handler of the mirror ends with reason
/// `ownerReleased`, which a recording session records.
@MainActor
public final class ControlBridge {
  /// The Sleeve control mirroring the platform control.
  public let control: Control
  /// Whether the mirror is recorded: ``naming`` gave it a name. An unrecorded mirror still
  /// runs its handlers, with no observer (no clock read, nothing recorded).
  public let isRecorded: Bool
  /// The platform control, while it lives.
  public private(set) weak var port: (any PlatformControlPort)?
  /// The events whose trampolines are installed on the platform control now.
  public private(set) var installedEvents = ControlEvents()

  /// The bridge of `port`, made and stored in the port on first use; every later call returns
  /// the same bridge. The mirror is named by ``naming`` when the bridge is made, so set the
  /// control's accessibility identifier before first use.
  public static func bridge(for port: some PlatformControlPort) -> ControlBridge {
    if let bridge = port.sleeveBridgeStorage { return bridge }
    let bridge = ControlBridge(port: port)
    port.sleeveBridgeStorage = bridge
    return bridge
  }

  private init(port: some PlatformControlPort) {
    let identity = PlatformControlIdentity(
      typeName: port.platformTypeName, accessibilityIdentifier: port.platformAccessibilityIdentifier
    )
    let name = Self.naming(identity)
    self.isRecorded = name != nil
    self.control = Control(
      name: name ?? identity.typeName, kind: identity.typeName,
      observer: name == nil ? NoOpDispatchObserver() : nil)
    self.port = port
    control.watchRegisteredEvents { [weak self] events in self?.installTrampolines(for: events) }
  }

  isolated deinit {
    control.watchRegisteredEvents(nil)
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
