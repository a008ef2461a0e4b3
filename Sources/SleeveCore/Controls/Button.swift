/// A headless `UIButton`: ``tap()`` sends what a real tap sends.
@MainActor
open class Button: Control {
  /// Simulates a tap: `touchDown`, then `touchUpInside`, then `primaryActionTriggered`, each
  /// as its own fire of one interaction (`tap`). Nothing runs while the button is disabled.
  public func tap() {
    performInteraction("tap") {
      sendInteraction(for: .touchDown)
      sendInteraction(for: .touchUpInside)
      sendInteraction(for: .primaryActionTriggered)
    }
  }
}
