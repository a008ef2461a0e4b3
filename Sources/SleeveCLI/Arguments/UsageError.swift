import SleeveStore

/// A mistake on the command line: printed as `Error: …`, the usage line and a pointer to
/// `--help`, with exit code 64.
struct UsageError: CommandFailure, Equatable {
  /// The one-line problem, e.g. `Unknown option '--x'`.
  let message: String
  /// The command whose usage to print, or `nil` for the top level.
  let command: String?

  /// 64.
  var exitCode: ExitCode { .usage }
  /// ``message`` (the command line adds the usage line and the pointer to `--help`).
  var failureMessage: String? { message }

  init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }

  /// `The value '101' is invalid for '--percentiles <list>': …`
  static func invalidValue(
    _ value: String, for option: OptionSpec, in command: String, because reason: String
  ) -> UsageError {
    UsageError(
      "The value '\(value)' is invalid for '\(option.synopsis)': \(reason)", command: command)
  }
}
