import SleeveCore

/// The demo's bulk traffic: the fires a tap, a toggle or typing sends, replayed with
/// `sendActions(for:)`, as a UI test drives a screen.
///
/// They are programmatic fires, not user interactions: thousands of replayed taps a second
/// are a script, and `sleeve lint` would read them as one long rage burst on every control
/// (and every declined card as an error interaction). The handlers see exactly what the
/// gestures send, in the same order, so every outcome is the same as for `tap()`, `toggle()`
/// and `type(_:)`; only the fires' origin differs. The user's own interactions are
/// ``CheckoutVisit``'s.
@MainActor
enum ReplayedTraffic {
  /// What `Button.tap()` sends: `touchDown`, `touchUpInside`, `primaryActionTriggered`.
  static func tap(_ button: Button) {
    button.sendActions(for: .touchDown)
    button.sendActions(for: .touchUpInside)
    button.sendActions(for: .primaryActionTriggered)
  }

  /// What `Switch.toggle()` does: flips `isOn`, then sends `valueChanged`.
  static func toggle(_ toggle: Switch) {
    toggle.isOn.toggle()
    toggle.sendActions(for: .valueChanged)
  }

  /// What `TextField.type(_:)` does: `editingDidBegin`, then each character appended and
  /// `editingChanged` sent, then `editingDidEnd`.
  static func type(_ input: String, into field: TextField) {
    field.sendActions(for: .editingDidBegin)
    for character in input {
      field.text.append(character)
      field.sendActions(for: .editingChanged)
    }
    field.sendActions(for: .editingDidEnd)
  }
}
