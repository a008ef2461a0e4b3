import SleeveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes: data to standard output, diagnostics to standard error; plus what
/// the command may know of its environment. Tests pass a capturing console.
final class Console: Sendable {
  private let sink: Locked<(out: String, error: String)>
  private let outputFailureReason = Locked<String?>(nil)
  private let capturing: Bool
  /// Whether this is the process's own console (not a test's capturing one).
  var isStandard: Bool { !capturing }
  /// Environment variables (`SLEEVE_DB`, `NO_COLOR`).
  let environment: [String: String]
  /// Whether standard output is a terminal.
  let outputIsTerminal: Bool
  /// Whether standard error is a terminal (progress lines are drawn there).
  let errorIsTerminal: Bool
  /// The width of the terminal on standard output, in cells: the terminal's own
  /// (`TIOCGWINSZ`), else `COLUMNS`, else 80. Meaningful only when `outputIsTerminal`.
  let terminalColumns: Int
  /// The width of the terminal on standard error, in cells, as `terminalColumns` reads it:
  /// progress lines are cut to it so that each stays one row (a wrapped one cannot be redrawn
  /// in place). Meaningful only when `errorIsTerminal`.
  let errorColumns: Int
  /// How long work runs before its progress line appears (`ProgressLine`): one second for the
  /// process's console, so quick commands draw nothing; tests choose.
  let progressDelay: Duration
  /// The jitter of a push's retries (uniform in 0..<1), or `nil` for the system's random
  /// numbers: tests pass a seeded source, so retry waits replay.
  let retryJitter: (@Sendable () -> Double)?

  /// The process's real streams and environment.
  static func standard(environment: [String: String]) -> Console {
    Console(
      capturing: false, environment: environment, outputIsTerminal: isatty(1) == 1,
      errorIsTerminal: isatty(2) == 1,
      terminalColumns: columns(reported: reportedColumns(of: 1), environment: environment),
      errorColumns: columns(reported: reportedColumns(of: 2), environment: environment),
      progressDelay: .seconds(1), retryJitter: nil)
  }

  /// A terminal's width: the one it reports when it reports one, else a `COLUMNS` of 1 to
  /// 10,000, else 80.
  static func columns(reported: Int?, environment: [String: String]) -> Int {
    if let reported, reported > 0 { return reported }
    if let text = environment["COLUMNS"], let value = Int(text), (1...10_000).contains(value) {
      return value
    }
    return 80
  }

  /// The columns the terminal on `descriptor` reports (`TIOCGWINSZ`), or `nil`.
  private static func reportedColumns(of descriptor: Int32) -> Int? {
    var size = winsize()
    guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }

  /// A console that keeps what is written, for tests; `outputIsTerminal` pretends standard
  /// output is a terminal `columns` wide (else `COLUMNS`, else 80), `errorIsTerminal` that
  /// standard error is one (as wide); progress lines appear after `progressDelay` (at once by
  /// default) and a push's retries wait with `retryJitter`'s values.
  static func capturing(
    environment: [String: String] = [:], outputIsTerminal: Bool = false, columns: Int? = nil,
    errorIsTerminal: Bool = false, progressDelay: Duration = .zero,
    retryJitter: (@Sendable () -> Double)? = nil
  ) -> Console {
    let width = Self.columns(reported: columns, environment: environment)
    return Console(
      capturing: true, environment: environment, outputIsTerminal: outputIsTerminal,
      errorIsTerminal: errorIsTerminal, terminalColumns: width, errorColumns: width,
      progressDelay: progressDelay, retryJitter: retryJitter)
  }

  private init(
    capturing: Bool, environment: [String: String], outputIsTerminal: Bool, errorIsTerminal: Bool,
    terminalColumns: Int, errorColumns: Int, progressDelay: Duration,
    retryJitter: (@Sendable () -> Double)?
  ) {
    self.terminalColumns = terminalColumns
    self.errorColumns = errorColumns
    self.progressDelay = progressDelay
    self.retryJitter = retryJitter
    self.capturing = capturing
    self.environment = environment
    self.outputIsTerminal = outputIsTerminal
    self.errorIsTerminal = errorIsTerminal
    sink = Locked(("", ""))
  }

  /// Colour only on a terminal, only when `NO_COLOR` is unset or empty (no-color.org), and
  /// never on a terminal that says it has none (`TERM=dumb`, as git and ls read it).
  var usesColor: Bool {
    outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
  }

  /// Writes `text` to standard output; a failed write is kept in `outputFailure` (the
  /// command then exits 74 instead of 0).
  func out(_ text: String) {
    _ = outReportingFailure(text)
  }

  /// Why a write to standard output failed (the first failure), or `nil` when none did.
  var outputFailure: String? { outputFailureReason.withLock { $0 } }

  /// Makes the next writes to standard output fail with `reason` (tests).
  func failOutput(_ reason: String) { outputFailureReason.withLock { $0 = reason } }

  /// Writes `text` to standard output, reporting failure (a full disk behind a redirect, a
  /// closed pipe when SIGPIPE is ignored) instead of dropping the rest.
  ///
  /// - Returns: `nil` when all was written, else the system's reason.
  func outReportingFailure(_ text: String) -> String? {
    if let failed = outputFailure { return failed }
    if capturing {
      sink.withLock { $0.out += text }
      return nil
    }
    guard let failure = Self.emitReportingFailure(text, to: 1) else { return nil }
    outputFailureReason.withLock { $0 = $0 ?? failure }
    return failure
  }

  /// Writes `text` to standard error.
  func error(_ text: String) {
    if capturing { sink.withLock { $0.error += text } } else { Self.emit(text, to: 2) }
  }

  /// What was written to standard output (capturing consoles only).
  var capturedOutput: String { sink.withLock { $0.out } }
  /// What was written to standard error (capturing consoles only).
  var capturedError: String { sink.withLock { $0.error } }

  private static func emit(_ text: String, to descriptor: Int32) {
    _ = emitReportingFailure(text, to: descriptor)
  }

  /// Writes all of `text`, retrying when interrupted; the reason when a write fails.
  private static func emitReportingFailure(_ text: String, to descriptor: Int32) -> String? {
    var text = text
    return text.withUTF8 { bytes -> String? in
      var offset = 0
      while offset < bytes.count {
        let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 && errno == EINTR { continue }
        guard written > 0 else { return String(cString: strerror(errno)) }
        offset += written
      }
      return nil
    }
  }
}
