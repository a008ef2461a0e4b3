/// A progress line on standard error, drawn only when standard error is a terminal: redrawn in
/// place (carriage return) at most every `interval`, ended with a line break by `finish`.
/// Pipes, files and CI logs get nothing from it.
final class ProgressLine {
  private let console: Console
  private let interval: Duration
  private var lastDrawn: ContinuousClock.Instant?
  private var widest = 0

  /// A progress line on `console`'s standard error, redrawn at most every `interval`.
  init(console: Console, interval: Duration = .milliseconds(100)) {
    self.console = console
    self.interval = interval
  }

  /// Redraws the line with `text` (built only when it is drawn): the first time at once, then
  /// when `interval` has passed since the last drawing.
  func update(_ text: @autoclosure () -> String) {
    guard console.errorIsTerminal else { return }
    let now = ContinuousClock.now
    if let lastDrawn, now - lastDrawn < interval { return }
    lastDrawn = now
    draw(text())
  }

  /// Draws `text` as the line's last state and ends it.
  func finish(_ text: String) {
    guard console.errorIsTerminal, lastDrawn != nil else { return }
    draw(text)
    console.error("\n")
  }

  private func draw(_ text: String) {
    let shown = TerminalText.escaped(text)
    let width = CellWidth.of(shown)
    // Spaces clear what a longer earlier line left.
    console.error("\r" + shown + String(repeating: " ", count: max(widest - width, 0)))
    widest = max(widest, width)
  }
}
