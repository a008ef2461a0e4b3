/// How a value stands out on a colour terminal: the ANSI SGR sequences Sleeve writes, and only
/// when colour is on (see `TerminalDisplay`).
enum Tone: Sendable {
  /// Breach, rollback: red.
  case bad
  /// Hold: yellow.
  case caution
  /// Pass, promote: green.
  case good
  /// Insufficient samples: dimmed.
  case muted
  /// The decision line and the header row: bold.
  case strong

  /// The tone of a verdict or decision word (`breach`, `rollback`, `hold`, `pass`, `promote`,
  /// `insufficient`), else `nil`.
  static func ofVerdict(_ word: String) -> Tone? {
    switch word {
    case "breach", "rollback": .bad
    case "hold": .caution
    case "pass", "promote": .good
    case "insufficient": .muted
    default: nil
    }
  }

  /// `text` (already escaped) between this tone's SGR sequence and a reset.
  func apply(to text: String) -> String {
    let code =
      switch self {
      case .bad: "31"
      case .caution: "33"
      case .good: "32"
      case .muted: "2"
      case .strong: "1"
      }
    return "\u{1B}[\(code)m" + text + "\u{1B}[0m"
  }
}
