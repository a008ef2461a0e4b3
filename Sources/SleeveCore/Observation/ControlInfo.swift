/// What an observer learns about the control an event came from, without holding the control.
///
/// One shared, immutable instance per control: passing it along with every fire costs a
/// reference, not a copy of two strings. Equal when the identities are equal.
public final class ControlInfo: Hashable, Sendable, CustomStringConvertible {
  /// The control's process-unique identity.
  public let id: ControlID
  /// The name given at creation, e.g. `checkout.submit`.
  public let name: String
  /// The control's class name, e.g. `Button`, or an app's own subclass name.
  public let kind: String

  init(id: ControlID, name: String, kind: String) {
    self.id = id
    self.name = name
    self.kind = kind
  }

  /// `checkout.submit (Button)`.
  public var description: String { "\(name) (\(kind))" }

  /// Two infos are equal when they describe the same control.
  public static func == (lhs: ControlInfo, rhs: ControlInfo) -> Bool { lhs.id == rhs.id }

  /// Hashes the control's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
