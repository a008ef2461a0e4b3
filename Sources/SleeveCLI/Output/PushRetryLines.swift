import SleeveExport

/// Shows each retry of a push as it happens, so a person waiting on an unreachable or busy
/// receiver sees why and for how long (`PushText.retry`): on a terminal one line redrawn in
/// place and cleared once the push ends; elsewhere (a pipe, a file, a CI log) one plain line
/// per retry on standard error, without carriage returns or escapes. The receiver's text in
/// either is escaped (`TerminalText`).
///
/// Sendable: the requests of a push retry on tasks of their own, all reporting here.
final class PushRetryLines: Sendable {
  private let console: Console
  private let line: ProgressLine

  /// Retry lines on `console`'s standard error.
  init(console: Console) {
    self.console = console
    line = ProgressLine(console: console)
  }

  /// Shows `notice`: called by the sender before it waits.
  @Sendable func retried(_ notice: OTLPRetryNotice) {
    let text = PushText.retry(notice)
    if console.errorIsTerminal {
      line.show(text)
    } else {
      console.error(TerminalText.escaped(text) + "\n")
    }
  }

  /// Clears the terminal's line, when one was drawn.
  func finish() { line.finish() }
}
