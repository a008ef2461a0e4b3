import Synchronization

/// A progress line on standard error, drawn only when standard error is a terminal, once the
/// work has lasted `delay` (quick commands draw nothing): redrawn in place (carriage return) at
/// most every `interval`, cut to the terminal's width so it stays one row, and cleared by
/// `finish`, leaving the terminal as it was. Pipes, files and CI logs get nothing from it.
///
/// Every text is escaped (`TerminalText`) before it is drawn: a name or a receiver's message in
/// it cannot act on the terminal. Sendable: its state is behind a `Mutex`, so the tasks of a
/// push can all report to one line.
final class ProgressLine: Sendable {
  private struct State {
    var lastDrawn: ContinuousClock.Instant?
    var widest = 0
  }

  private let console: Console
  private let interval: Duration
  private let delay: Duration
  private let start: ContinuousClock.Instant
  private let state = Mutex(State())

  /// A progress line on `console`'s standard error, first drawn once `delay` (by default the
  /// console's `progressDelay`) has passed since `start`, then redrawn at most every
  /// `interval`.
  init(
    console: Console, interval: Duration = .milliseconds(100), delay: Duration? = nil,
    start: ContinuousClock.Instant = .now
  ) {
    self.console = console
    self.interval = interval
    self.delay = delay ?? console.progressDelay
    self.start = start
  }

  /// Redraws the line with `text` (built only when it is drawn), `now`: not before `delay` has
  /// passed since the start, then when `interval` has passed since the last drawing (or at
  /// once, when `always`: a last step that may take long).
  func update(
    _ text: @autoclosure () -> String, always: Bool = false, now: ContinuousClock.Instant = .now
  ) {
    guard console.errorIsTerminal, now - start >= delay else { return }
    state.withLock { state in
      if !always, let lastDrawn = state.lastDrawn, now - lastDrawn < interval { return }
      state.lastDrawn = now
      draw(text(), &state)
    }
  }

  /// Draws `text` at once, whatever the delay and interval: an event the reader must see (a
  /// retry).
  func show(_ text: String, now: ContinuousClock.Instant = .now) {
    guard console.errorIsTerminal else { return }
    state.withLock { state in
      state.lastDrawn = now
      draw(text, &state)
    }
  }

  /// Clears the line, when it was drawn, and leaves the cursor at the start of its row.
  func finish() {
    guard console.errorIsTerminal else { return }
    state.withLock { state in
      guard state.lastDrawn != nil else { return }
      console.error("\r" + String(repeating: " ", count: state.widest) + "\r")
      state = State()
    }
  }

  private func draw(_ text: String, _ state: inout State) {
    // One cell short of the edge: a terminal that wraps at the last column would take the
    // line to a second row, which a carriage return cannot reach.
    let room = max(console.errorColumns - 1, 1)
    var shown = TerminalText.escaped(text)
    if CellWidth.of(shown) > room { shown = CellText.pieces(shown, width: room)[0] }
    let width = CellWidth.of(shown)
    // Spaces clear what a longer earlier line left.
    console.error("\r" + shown + String(repeating: " ", count: max(state.widest - width, 0)))
    state.widest = max(state.widest, width)
  }
}
