import SleeveTestSupport

/// Recorded names built to attack each output: terminal escapes (retitle, clear, colour, CSI
/// as one C1 scalar), line breaks that would forge rows, a bidirectional override, markup,
/// Markdown links and spreadsheet formulas. None holds `'` (the fixture writes SQL literals).
enum HostileNames {
  static let session = "s\u{1B}]0;PWNED\u{07}\u{1B}[2J"
  static let handler = "h\nforged  99  99"
  static let control = "c\r\u{202E}x"
  static let flag = "f\u{9B}31m\tk<img src=x onerror=alert(1)>"
  static let owner = "o\u{1B}[31m[click](https://evil.example)"
  static let reason = "r\r\nforged"

  /// Scalars no table, error line or Markdown output may hold (LF ends lines, so it is left
  /// to each test).
  static let forbidden: Set<Unicode.Scalar> = Set(
    EscaperTests.terminalControls.filter { $0 != "\n" })

  /// One session with every hostile name: a flag-gated handler with on and off outcomes, a
  /// failure, and a flag with thresholds and a state change with a hostile reason.
  static func database() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: session)
    try fixture.handler(session: 1, number: 1, name: handler, control: control, flag: flag)
    try fixture.outcomes(session: 1, handler: 1, durations: [5, 6, 7], variant: 1)
    try fixture.outcomes(session: 1, handler: 1, durations: [8], status: 1, variant: 1)
    try fixture.outcomes(session: 1, handler: 1, durations: [4, 4], variant: 0)
    try fixture.flag(
      session: 1, key: flag, owner: owner, maxErrorRate: 0.1, maxP99: 100, minSamples: 1,
      states: [("enabled", reason)])
    return fixture
  }
}
