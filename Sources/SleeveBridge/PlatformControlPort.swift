import SleeveCore

/// What Sleeve needs from a platform control (`UIControl`, `NSControl`, or a test's fake) to
/// mirror it into a ``Control``: a place to keep its bridge, one trampoline per event, and the
/// facts a mirror is named by.
///
/// A conformance adds no logic: ``ControlBridge`` decides when trampolines come and go. The
/// UIKit conformance installs each trampoline as a `UIAction` with the trampoline's
/// ``PlatformTrampoline/identifier`` for its one event; AppKit's owns the control's single
/// target/action slot.
@MainActor
public protocol PlatformControlPort: AnyObject {
  /// Storage for the control's anchor to its bridge, owned by the control (on Apple
  /// platforms an associated object, retained). Only ``ControlBridge`` reads or writes it.
  var sleeveBridgeAnchor: ControlBridgeAnchor? { get set }

  /// Whether the control takes user interaction now (`UIControl.isEnabled`).
  var isEnabled: Bool { get }

  /// The control's class name, e.g. `UIButton`: a mirror's kind, and its name when it has no
  /// accessibility identifier.
  var platformTypeName: String { get }

  /// The control's accessibility identifier, the preferred name of its mirror.
  var platformAccessibilityIdentifier: String? { get }

  /// Makes the control call `trampoline.fire()` whenever it sends `trampoline.event`. A
  /// trampoline with the same identifier replaces the one installed before.
  func installTrampoline(_ trampoline: PlatformTrampoline)

  /// Removes the trampoline with `identifier` installed for `event`; does nothing when none is.
  func removeTrampoline(identifiedBy identifier: String, for event: ControlEvents)
}

/// One event's forwarder from a platform control into its mirror. It holds the bridge weakly,
/// so a platform control that keeps it (a `UIAction` in the control's action list) makes no
/// cycle; once the bridge is gone, firing it does nothing.
@MainActor
public struct PlatformTrampoline {
  /// The one event (a single bit) it forwards.
  public let event: ControlEvents
  /// `sleeve.<raw value>`, e.g. `sleeve.64` for `touchUpInside`: unique per event, so
  /// installing it again replaces it.
  public let identifier: String
  private weak var bridge: ControlBridge?

  init(event: ControlEvents, bridge: ControlBridge) {
    self.event = event
    self.identifier = Self.identifier(for: event)
    self.bridge = bridge
  }

  /// Forwards one platform send of ``event`` to the mirror: exactly one fire of the mirror.
  public func fire() {
    bridge?.platformSent(event)
  }

  /// The identifier of the trampoline for `event`.
  public static func identifier(for event: ControlEvents) -> String {
    "sleeve.\(event.rawValue)"
  }
}
