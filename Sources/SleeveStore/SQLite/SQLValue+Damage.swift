extension SQLValue {
  /// How a damage message shows a stored value: `NULL`, the number, or at most 64 characters
  /// of a text in quotes (never a whole text a file could hold).
  public var damageText: String {
    switch self {
    case .null: "NULL"
    case .integer(let number): String(number)
    case .real(let number): String(number)
    case .text(let text): "'\(text.prefix(64))'"
    }
  }
}
