/// The token for one handler registration: cancel it to remove the handler.
///
/// A registration holds its control weakly, so keeping a token never keeps a control alive.
/// Dropping the token does nothing (registrations are discardable); cancelling twice, or after
/// the control is gone, does nothing.
///
/// ```swift
/// let registration = button.on(.touchUpInside) { _ in save() }
/// registration.cancel()
/// ```
@MainActor
public final class Registration: Hashable {
  /// The registration's identity, as observers see it.
  public let id: RegistrationID
  private weak var control: Control?

  init(id: RegistrationID, control: Control?) {
    self.id = id
    self.control = control
  }

  /// A token for a call that registered nothing (an empty event mask).
  static func inactive() -> Registration {
    Registration(id: IdentifierCounter.nextRegistration(), control: nil)
  }

  /// Whether the handler is still registered on a live control.
  public var isActive: Bool {
    control?.registry.contains(id) ?? false
  }

  /// Removes the handler (observers see reason `cancelled`) and cancels its running async
  /// tasks. Does nothing when it is already gone.
  public func cancel() {
    control?.removeRegistration(id, reason: .cancelled)
    control = nil
  }

  /// Two tokens are equal when they stand for the same registration.
  public nonisolated static func == (lhs: Registration, rhs: Registration) -> Bool {
    lhs.id == rhs.id
  }

  /// Hashes the registration identity.
  public nonisolated func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
