/// A control's identity for the life of the process: unique, never reused, cheap to compare.
public struct ControlID: Hashable, Sendable, CustomStringConvertible {
  /// The process-unique number; the first control is 1.
  public let rawValue: UInt64
  /// `control#N`.
  public var description: String { "control#\(rawValue)" }
}

/// A handler registration's identity for the life of the process: unique, never reused.
///
/// Widening or narrowing an entry's events keeps its identity; a replacement by `id:` is a new
/// registration.
public struct RegistrationID: Hashable, Sendable, CustomStringConvertible {
  /// The process-unique number; the first registration is 1.
  public let rawValue: UInt64
  /// `registration#N`.
  public var description: String { "registration#\(rawValue)" }
}

/// One fire's identity for the life of the process: unique, never reused.
///
/// Only observed fires get an identity: an unobserved fire costs no counter.
public struct FireID: Hashable, Sendable, CustomStringConvertible {
  /// The process-unique number; the first observed fire is 1.
  public let rawValue: UInt64
  /// `fire#N`.
  public var description: String { "fire#\(rawValue)" }
}

/// The counters behind the identifiers. Only the main actor creates controls, registrations
/// and fires, so plain main-actor state is race-free.
@MainActor
enum IdentifierCounter {
  static var controls: UInt64 = 0
  static var registrations: UInt64 = 0
  static var fires: UInt64 = 0

  static func nextControl() -> ControlID {
    controls &+= 1
    return ControlID(rawValue: controls)
  }

  static func nextRegistration() -> RegistrationID {
    registrations &+= 1
    return RegistrationID(rawValue: registrations)
  }

  static func nextFire() -> FireID {
    fires &+= 1
    return FireID(rawValue: fires)
  }
}

/// One user interaction's identity for the life of the process: unique, never reused.
///
/// Only observed interactions get an identity: an unobserved one costs no counter.
public struct InteractionID: Hashable, Sendable, CustomStringConvertible {
  /// The process-unique number; the first observed interaction is 1.
  public let rawValue: UInt64
  /// `interaction#N`.
  public var description: String { "interaction#\(rawValue)" }
}

extension IdentifierCounter {
  static var interactions: UInt64 = 0

  static func nextInteraction() -> InteractionID {
    interactions &+= 1
    return InteractionID(rawValue: interactions)
  }
}
