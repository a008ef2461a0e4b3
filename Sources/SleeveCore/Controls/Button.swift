/// A headless `UIButton`: ``tap()`` sends what a real tap sends.
@MainActor
open class Button: Control {
  /// Simulates a tap: `touchDown`, then `touchUpInside`, then `primaryActionTriggered`, each
  /// as its own interaction fire. Nothing runs while the button is disabled.
  public func tap() {
    sendInteraction(for: .touchDown)
    sendInteraction(for: .touchUpInside)
    sendInteraction(for: .primaryActionTriggered)
  }
}
