/// What a flag key may contain, the one rule every entry point applies: 1 to 128 ASCII
/// letters, digits, `.`, `_` and `-`, starting with a letter or a digit (`new-checkout`,
/// `payments.v2`, `checkout_redesign`).
///
/// - In code, a handler gated by an invalid key is never switched on: it serves `off`, and its
///   evaluation's reason is `invalidKey` (no provider state can reach it).
/// - `sleeve rollback`, `enable` and `disable` refuse an invalid key (exit 64).
/// - Keys read from a file that break the rule (written by another tool, or before the rule)
///   are shown as recorded, escaped, and never serve a state.
///
/// The rule keeps keys readable in every output and free of the separators reports and shells
/// use (`:`, `/`, spaces, quotes).
public enum FlagKey {
  /// The longest key, in bytes.
  public static let maximumLength = 128

  /// Why `key` is not a valid flag key, in a few words; `nil` when it is one.
  public static func problem(with key: String) -> String? {
    let bytes = key.utf8
    guard let first = bytes.first else { return "a flag key cannot be empty" }
    guard bytes.count <= maximumLength else {
      return "a flag key is at most \(maximumLength) characters"
    }
    guard isLetterOrDigit(first) else {
      return "a flag key starts with a letter or a digit"
    }
    guard bytes.allSatisfy({ isLetterOrDigit($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D })
    else {
      return "a flag key holds only ASCII letters, digits, '.', '_' and '-'"
    }
    return nil
  }

  /// Whether `key` is a valid flag key.
  public static func isValid(_ key: String) -> Bool { problem(with: key) == nil }

  private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
    (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
  }
}
