/// A headless `UITextField`: ``type(_:)`` edits ``text`` the way typing does.
@MainActor
open class TextField: Control {
  /// The current text. Setting it directly sends no event, as in UIKit.
  public var text: String

  /// Creates a text field, empty unless `text` says otherwise.
  public init(
    name: String, text: String = "", observer: (any DispatchObserver)? = nil,
    flags: (any FlagProvider)? = nil
  ) {
    self.text = text
    super.init(name: name, observer: observer, flags: flags)
  }

  /// Simulates typing `input`: `editingDidBegin`, then for each character the character is
  /// appended and `editingChanged` fires, then `editingDidEnd`: one interaction, `type`.
  /// While disabled the text does not change.
  public func type(_ input: String) {
    performInteraction("type") {
      sendInteraction(for: .editingDidBegin)
      for character in input {
        if isEnabled { text.append(character) }
        sendInteraction(for: .editingChanged)
      }
      sendInteraction(for: .editingDidEnd)
    }
  }
}
