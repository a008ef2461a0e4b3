#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system's words for an `errno` value, the one way Sleeve puts them in messages.
public enum SystemError {
  /// `strerror(code)` with its first letter lowercased, as in `permission denied`.
  public static func text(_ code: Int32) -> String {
    let text = String(cString: strerror(code))
    return text.prefix(1).lowercased() + text.dropFirst()
  }
}
