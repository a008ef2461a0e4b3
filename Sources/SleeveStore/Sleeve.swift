/// Sleeve's own version, below every module that records or reads it.
public enum Sleeve {
  /// The version recorded in every session and printed by `sleeve --version`.
  public static let version = "0.1.0"
}
