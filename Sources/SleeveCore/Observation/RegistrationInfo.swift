/// A handler registration as an observer sees it.
public struct RegistrationInfo: Hashable, Sendable {
  /// Why the observer is told about this registration.
  public enum Change: String, Hashable, Sendable {
    /// The handler was just registered.
    case added
    /// The handler's events changed (a target-action widened by the same `id`, or a removal
    /// that left it on the remaining events); ``RegistrationInfo/events`` is the new mask.
    case eventsChanged
    /// The handler existed when the observer was attached to the control.
    case existing
  }

  /// Closure handler or target-action entry (separate namespaces for `id`).
  public enum Kind: String, Hashable, Sendable {
    /// Registered with `on(_:…)`.
    case closure
    /// Registered with `addTarget(_:action:id:for:)`.
    case targetAction
  }

  /// The registration's identity.
  public let id: RegistrationID
  /// The control it belongs to.
  public let control: ControlInfo
  /// The events it answers, after this change.
  public let events: ControlEvents
  /// Closure or target-action.
  public let kind: Kind
  /// Whether the handler is `async` (it reports when its task completes).
  public let isAsync: Bool
  /// The `id:` it was registered with, if any.
  public let identifier: String?
  /// The gating flag's key, if any.
  public let flagKey: String?
  /// The class name of the weakly held owner or target, if any.
  public let anchorType: String?
  /// Where it was registered: `File.swift:42`.
  public let site: String
  /// Why the observer is told.
  public let change: Change
  /// The registration this one replaced by `id:` (reported removed with reason `replaced`
  /// just before this), when the change is ``Change/added`` by replacement; otherwise `nil`.
  public let replaced: RegistrationID?
  /// When the observer was told (registration, change or attach), in ``MonotonicClock``
  /// nanoseconds.
  public let atNanoseconds: Int64

  /// A stable, readable name to group outcomes by: the `id:` when given, else the site;
  /// target-actions are prefixed with their target's type (`CheckoutModel.submit`,
  /// `CheckoutModel@Checkout.swift:42`).
  public var handler: String {
    switch (kind, anchorType, identifier) {
    case (.targetAction, let type?, let id?): "\(type).\(id)"
    case (.targetAction, let type?, nil): "\(type)@\(site)"
    case (_, _, let id?): id
    case (_, _, nil): site
    }
  }
}

/// Why a handler was removed.
public enum RemovalReason: String, Hashable, Sendable {
  /// Its ``Registration`` was cancelled.
  case cancelled
  /// A new handler with the same `id:` took its place.
  case replaced
  /// `removeTarget(_:action:for:)` or `removeAction(identifiedBy:for:)` removed all its events.
  case removed
  /// Its owner or target was deallocated; it was pruned at the next fire that reached it.
  case ownerReleased
}

/// A handler's removal as an observer sees it.
public struct RemovalInfo: Hashable, Sendable {
  /// The removed registration.
  public let id: RegistrationID
  /// The control it belonged to.
  public let control: ControlInfo
  /// Why it was removed.
  public let reason: RemovalReason
  /// When, in ``MonotonicClock`` nanoseconds.
  public let atNanoseconds: Int64
}
