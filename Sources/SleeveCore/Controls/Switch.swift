/// A headless `UISwitch`: ``toggle()`` flips ``isOn`` and sends `valueChanged`.
@MainActor
open class Switch: Control {
  /// Whether the switch is on. Setting it directly sends no event, as in UIKit.
  public var isOn: Bool

  /// Creates a switch, off unless `isOn` says otherwise.
  public init(
    name: String, isOn: Bool = false, observer: (any DispatchObserver)? = nil,
    flags: (any FlagProvider)? = nil
  ) {
    self.isOn = isOn
    super.init(name: name, observer: observer, flags: flags)
  }

  /// Simulates the user flipping the switch: `isOn` changes, then `valueChanged` fires, so
  /// handlers read the new value: one interaction, `toggle`. While disabled the switch does
  /// not move.
  public func toggle() {
    performInteraction("toggle") {
      if isEnabled { isOn.toggle() }
      sendInteraction(for: .valueChanged)
    }
  }
}
