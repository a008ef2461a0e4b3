// `ExitCode` lives in SleeveStore, below every module that owns an error, so each error type
// names its own code (`CommandFailure`); `import SleeveCLI` alone makes it visible, as before.
@_exported import struct SleeveStore.ExitCode

extension ExitCode {
  /// Every code with its meaning, as `sleeve help` and README list them.
  static let documented: [(code: ExitCode, meaning: String)] = [
    (.success, "Success; check: every check passed (promote); diff, flaky and changes: always."),
    (.breach, "check: a check with enough samples breached (roll back); lint: a finding fired."),
    (.insufficient, "check: no breach, but too few samples to decide (hold)."),
    (.usage, "Usage error: unknown option, bad value, missing argument; check: nothing to check."),
    (.dataError, "Not a Sleeve database (or not a regular file), damaged, older or newer."),
    (.notFound, "Database or session not found, unreadable, or no sessions yet."),
    (.unavailable, "Needs pruned raw rows or unwritten summaries; push or history: unreachable."),
    (.ioError, "I/O error reading or writing the database or an output."),
    (.busy, "Database busy (locked) past the timeout; try again."),
    (.refused, "export --endpoint: the receiver refused a request (its message is printed)."),
    (.denied, "History: the server refused the credentials or the role lacks a privilege."),
  ]
}
