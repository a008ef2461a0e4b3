/// The `sleeve` command's exit codes (sysexits.h where one fits).
///
/// It lives beside the store, below every module that owns an error, so each error type can
/// name its own code (``CommandFailure``); SleeveCLI re-exports it and keeps the table its help
/// prints (`ExitCode.documented`).
///
/// An `ExitCode` is itself an error: a command that has already said what went wrong throws
/// the code to end with it (`throw ExitCode.unavailable`), and nothing more is printed.
public struct ExitCode: RawRepresentable, Equatable, Sendable, CommandFailure {
  /// The process exit status.
  public let rawValue: Int32

  /// Creates an exit code.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// Success; `check`: every check passed.
  public static let success = ExitCode(rawValue: 0)
  /// `check`: a check with enough samples breached its threshold; `lint`: an active finding at
  /// `--fail-on` severity or worse.
  public static let breach = ExitCode(rawValue: 1)
  /// `check`: no breach, but a check has too few samples to decide.
  public static let insufficient = ExitCode(rawValue: 2)
  /// The command line was wrong (unknown option, bad value, missing argument, an `--out` that
  /// must not be written); `check`: nothing to check.
  public static let usage = ExitCode(rawValue: 64)
  /// The file is not a Sleeve database (or not a regular file), is damaged, or has an older
  /// or newer schema.
  public static let dataError = ExitCode(rawValue: 65)
  /// The database or the selected session does not exist, cannot be read, or holds no
  /// sessions yet.
  public static let notFound = ExitCode(rawValue: 66)
  /// The answer needs rows the file does not hold: raw rows of a session that `sleeve prune`
  /// pruned (`--exact`, `--by event`, `export`), or summaries of ended sessions that have none
  /// yet beside pruned ones (add them with `sleeve summarize`); `export --endpoint`: the
  /// endpoint stayed unreachable past the retries, or a session changed after part of it was
  /// delivered (`--resend`).
  public static let unavailable = ExitCode(rawValue: 69)
  /// `export --endpoint`: the receiver refused a request (a status that is not retried, or a
  /// retryable one past the retry budget); its message is printed.
  public static let refused = ExitCode(rawValue: 76)
  /// Reading or writing the database or an output (standard output included) failed.
  public static let ioError = ExitCode(rawValue: 74)
  /// The database stayed locked past the busy timeout; try again. A shared history (PostgreSQL):
  /// a serialization failure, deadlock or lock wait that outlasted the retries.
  public static let busy = ExitCode(rawValue: 75)
  /// A shared history (PostgreSQL) refused the credentials or the role lacks the privilege the
  /// command needs (a reader publishing, a publisher pruning).
  public static let denied = ExitCode(rawValue: 77)

  /// Itself: the command ends with this code.
  public var exitCode: ExitCode { self }

  /// `nil`: whoever threw the code has already said why, so nothing more is printed.
  public var failureMessage: String? { nil }
}
