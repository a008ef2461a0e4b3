import SleeveCore

/// What a mirror is named by: the platform control's class and accessibility identifier.
public struct PlatformControlIdentity: Hashable, Sendable {
  /// The platform class name, e.g. `UIButton`.
  public let typeName: String
  /// The accessibility identifier, if the control has one.
  public let accessibilityIdentifier: String?

  /// Creates an identity.
  public init(typeName: String, accessibilityIdentifier: String?) {
    self.typeName = typeName
    self.accessibilityIdentifier = accessibilityIdentifier
  }
}

extension ControlBridge {
  /// Names each new mirror: the default is the accessibility identifier when it has one that
  /// is not empty, else the platform class name. Replace it to name controls your way; return
  /// `nil` to leave a control out of recordings: its mirror starts with no observer, not even
  /// the process's default one, so nothing is recorded unless the app attaches that mirror to
  /// a session itself (its handlers still run). Asked once per platform control, when its
  /// bridge is made. Process-wide: a test that replaces it restores it before its first
  /// suspension.
  public static var naming: @MainActor (PlatformControlIdentity) -> String? = defaultName

  /// The default ``naming``: the accessibility identifier if not empty, else the class name.
  public static func defaultName(_ identity: PlatformControlIdentity) -> String? {
    if let identifier = identity.accessibilityIdentifier, !identifier.isEmpty {
      return identifier
    }
    return identity.typeName
  }
}
