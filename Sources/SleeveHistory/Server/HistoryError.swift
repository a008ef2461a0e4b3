import SleeveStore

/// Why a shared history (PostgreSQL) could not answer or take a session: one line, with the
/// history named by its redacted URL and every password scrubbed, and the exit code its kind
/// documents.
///
/// The kinds follow the server's SQLSTATE class where it sent one (PostgreSQL's appendix A):
/// 08 and 57 (connection, shutdown) are ``Kind/unreachable``; 28 and 42501 (authentication,
/// privilege) ``Kind/denied``; 40001, 40P01, 55P03 and 57014 (serialization, deadlock, lock,
/// timeout) ``Kind/busy``; 3D000 (no such database) ``Kind/notFound``; 42P01 (no such table)
/// ``Kind/schema``.
public struct HistoryError: Error, Equatable, CustomStringConvertible, CommandFailure {
  /// What kind of failure, and so the exit code.
  public enum Kind: String, Equatable, Sendable {
    /// The server could not be reached, or the connection was lost (exit 69).
    case unreachable
    /// Authentication failed, or the role lacks a privilege (exit 77).
    case denied
    /// The database does not exist (exit 66).
    case notFound
    /// The history's schema is missing, older or newer than this binary's, or its rows are
    /// damaged (exit 65).
    case schema
    /// A serialization failure, deadlock, lock wait or statement timeout outlasted the retries
    /// (exit 75).
    case busy
    /// The command line was wrong (exit 64).
    case usage
    /// Anything else the server or libpq refused (exit 74).
    case failed
  }

  /// What kind of failure.
  public let kind: Kind
  /// The one-line message (no password).
  public let message: String
  /// The SQLSTATE the server sent, when it sent one.
  public let sqlState: String?

  /// A failure of `kind` with `message` (already scrubbed of passwords).
  public init(_ kind: Kind, _ message: String, sqlState: String? = nil) {
    self.kind = kind
    self.message = Self.oneLine(message)
    self.sqlState = sqlState
  }

  /// The kind a SQLSTATE names.
  public static func kind(ofSQLState state: String) -> Kind {
    switch state {
    case "40001", "40P01", "55P03", "57014": return .busy
    case "42501": return .denied
    case "3D000": return .notFound
    case "42P01": return .schema
    default: break
    }
    switch state.prefix(2) {
    case "08", "57": return .unreachable
    case "28": return .denied
    default: return .failed
    }
  }

  /// The exit code the kind documents.
  public var exitCode: ExitCode {
    switch kind {
    case .unreachable: .unavailable
    case .denied: .denied
    case .notFound: .notFound
    case .schema: .dataError
    case .busy: .busy
    case .usage: .usage
    case .failed: .ioError
    }
  }

  /// The message.
  public var description: String { message }

  /// `text` as one line: libpq's messages end with newlines and may span several lines
  /// (`DETAIL:`, `HINT:`); control characters become spaces, runs of spaces one.
  static func oneLine(_ text: String) -> String {
    var scalars = String.UnicodeScalarView()
    var lastWasSpace = false
    for scalar in text.unicodeScalars {
      let isSpace = scalar.properties.generalCategory == .control || scalar == " "
      if isSpace {
        if !lastWasSpace { scalars.append(" ") }
        lastWasSpace = true
      } else {
        scalars.append(scalar)
        lastWasSpace = false
      }
    }
    return String(scalars).trimmingSpaces
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    var scalars = Substring(self).unicodeScalars
    while scalars.first == " " { scalars.removeFirst() }
    while scalars.last == " " { scalars.removeLast() }
    return String(scalars)
  }
}
