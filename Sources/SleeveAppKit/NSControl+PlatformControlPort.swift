#if canImport(AppKit) && !targetEnvironment(macCatalyst)
  import AppKit
  import ObjectiveC
  import SleeveBridge
  import SleeveCore

  /// The associated-object keys of a control's bridge anchor and of its action target: only their
  /// addresses are used, and only on the main actor, where every `NSControl` lives.
  @MainActor private var bridgeKey: UInt8 = 0
  @MainActor private var targetKey: UInt8 = 0

  /// The one object that owns an `NSControl`'s single target/action slot while a handler
  /// answers `primaryActionTriggered`. `NSControl` holds its target weakly, so the control
  /// retains this object as an associated object.
  @MainActor
  final class SleeveActionTarget: NSObject {
    let trampoline: PlatformTrampoline

    init(_ trampoline: PlatformTrampoline) {
      self.trampoline = trampoline
    }

    /// The control's action: one send of `primaryActionTriggered`.
    @objc func send(_ sender: Any?) {
      trampoline.fire()
    }
  }

  /// `NSControl` as a port. AppKit sends one action per control, so only
  /// `primaryActionTriggered` has a trampoline: Sleeve takes the control's target and action
  /// while a handler answers it, and a control whose target/action the app sets itself no
  /// longer reaches Sleeve. Handlers for other events never run. Not compiled or tested on
  /// Linux: see README's Limitations.
  extension NSControl: PlatformControlPort {
    /// The anchor to the bridge, retained by the control as an associated object.
    public var sleeveBridgeAnchor: ControlBridgeAnchor? {
      get { objc_getAssociatedObject(self, &bridgeKey) as? ControlBridgeAnchor }
      set {
        objc_setAssociatedObject(self, &bridgeKey, newValue, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
      }
    }

    /// The control's class name, e.g. `NSButton`.
    public var platformTypeName: String { String(describing: type(of: self)) }

    /// `accessibilityIdentifier()`, `nil` when empty.
    public var platformAccessibilityIdentifier: String? {
      let identifier = accessibilityIdentifier()
      return identifier.isEmpty ? nil : identifier
    }

    /// Takes the target/action slot for `primaryActionTriggered`; other events have none.
    public func installTrampoline(_ trampoline: PlatformTrampoline) {
      guard trampoline.event == .primaryActionTriggered else { return }
      let target = SleeveActionTarget(trampoline)
      objc_setAssociatedObject(self, &targetKey, target, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
      self.target = target
      action = #selector(SleeveActionTarget.send(_:))
    }

    /// Gives the slot back when Sleeve still holds it.
    public func removeTrampoline(identifiedBy identifier: String, for event: ControlEvents) {
      guard event == .primaryActionTriggered,
        let target = objc_getAssociatedObject(self, &targetKey) as? SleeveActionTarget
      else { return }
      if self.target === target {
        self.target = nil
        action = nil
      }
      objc_setAssociatedObject(self, &targetKey, nil, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
    }
  }
#endif
