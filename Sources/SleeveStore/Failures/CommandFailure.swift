/// An error the `sleeve` command reports itself: the exit code it ends with and the one line it
/// prints after `Error: `.
///
/// Every error type a command can let escape adopts it, next to its own declaration, so the
/// code travels with the error and nothing maps errors to codes by hand. An error that wraps
/// another (`QueryError.store`, `RecorderError.sqlite`) answers with the wrapped one's code.
/// The command line asks only this protocol; an error that does not adopt it is a programming
/// mistake, reported as an I/O error (exit 74) with its description (`ExitCodeMappingTests`
/// lists every error type the command line can see).
///
/// ```swift
/// extension UnknownFlag: CommandFailure {
///   var exitCode: ExitCode { .notFound }
/// }
/// ```
public protocol CommandFailure: Error {
  /// The exit status the command ends with.
  var exitCode: ExitCode { get }
  /// The one line printed after `Error: `, or `nil` when whoever threw the error has already
  /// printed what went wrong (a thrown ``ExitCode``).
  var failureMessage: String? { get }
}

extension CommandFailure where Self: CustomStringConvertible {
  /// The error's description: every Sleeve error's description is its one-line message.
  public var failureMessage: String? { description }
}
