#if canImport(UIKit)
  import ObjectiveC
  import SleeveBridge
  import SleeveCore
  import UIKit

  /// The associated-object key of a control's bridge anchor: only its address is used, and only on
  /// the main actor, where every `UIControl` lives.
  @MainActor private var bridgeKey: UInt8 = 0

  /// `UIControl` as a port: each trampoline is one `UIAction`, identified by the
  /// trampoline's identifier and added for its one event. `UIKit` uniques actions by
  /// identifier, so installing one again replaces it. `UIControl.Event` and ``ControlEvents``
  /// share their raw values. Not compiled or tested on Linux: see README's Limitations.
  extension UIControl: PlatformControlPort {
    /// The anchor to the bridge, retained by the control as an associated object.
    public var sleeveBridgeAnchor: ControlBridgeAnchor? {
      get { objc_getAssociatedObject(self, &bridgeKey) as? ControlBridgeAnchor }
      set {
        objc_setAssociatedObject(self, &bridgeKey, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
      }
    }

    /// The control's class name, e.g. `UIButton`.
    public var platformTypeName: String { String(describing: type(of: self)) }

    /// `accessibilityIdentifier`.
    public var platformAccessibilityIdentifier: String? { accessibilityIdentifier }

    /// Adds one `UIAction` that fires `trampoline` for its event.
    public func installTrampoline(_ trampoline: PlatformTrampoline) {
      let action = UIAction(identifier: UIAction.Identifier(trampoline.identifier)) { _ in
        MainActor.assumeIsolated { trampoline.fire() }
      }
      addAction(action, for: UIControl.Event(rawValue: trampoline.event.rawValue))
    }

    /// Removes the `UIAction` with `identifier` from `event`.
    public func removeTrampoline(identifiedBy identifier: String, for event: ControlEvents) {
      removeAction(
        identifiedBy: UIAction.Identifier(identifier),
        for: UIControl.Event(rawValue: event.rawValue))
    }
  }
#endif
