/// What an observer learns about the control an event came from, without holding the control.
public struct ControlInfo: Hashable, Sendable {
  /// The control's process-unique identity.
  public let id: ControlID
  /// The name given at creation, e.g. `checkout.submit`.
  public let name: String
  /// The control's class name, e.g. `Button`, or an app's own subclass name.
  public let kind: String
}
