/// Where a fire came from.
public enum FireOrigin: String, Hashable, Sendable {
  /// A simulated user interaction (`tap()`, `toggle()`, `type(_:)`, `sendInteraction(for:)`);
  /// suppressed while the control is disabled.
  case interaction
  /// `sendActions(for:)`: dispatched even while the control is disabled, as in UIKit.
  case programmatic
}

/// One fire as an observer sees it.
public struct FireInfo: Hashable, Sendable {
  /// The fire's identity.
  public let id: FireID
  /// The control that fired.
  public let control: ControlInfo
  /// The events sent.
  public let events: ControlEvents
  /// Interaction or programmatic.
  public let origin: FireOrigin
  /// The observed fire whose handler sent this one, if any.
  public let parent: FireID?
  /// Nesting depth across all controls: 1 for a top-level fire.
  public let depth: Int
  /// When the fire began, in ``MonotonicClock`` nanoseconds.
  public let atNanoseconds: Int64
}
