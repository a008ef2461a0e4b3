import SleeveQuery
import SleeveStore

/// Pushes each recorded session to an OTLP/HTTP endpoint once it has ended: set it as
/// `RecorderOptions.export`. Traces and metrics go as `sleeve export --endpoint` sends them,
/// recorded in the session's database request by request, so whatever a push at the end did
/// not finish (the process exited first, the collector was down) a later
/// `sleeve export --endpoint` sends, and nothing twice.
///
/// ```swift
/// var options = RecorderOptions()
/// options.export = try OTLPSessionExport(
///   configuration: .resolve(
///     flags: OTLPPushFlags(), environment: ProcessInfo.processInfo.environment))
/// let recorder = try Recorder(path: "sleeve.sqlite", options: options)
/// ```
public struct OTLPSessionExport: SessionExport {
  /// What sends the requests.
  public let sender: any OTLPRequestSending
  /// How long `end()` waits for the push (default 5 s); it goes on in the background after.
  public let endWait: Duration

  /// An export through `sender`, which `end()` waits for at most `endWait`.
  public init(sender: any OTLPRequestSending, endWait: Duration = .seconds(5)) {
    self.sender = sender
    self.endWait = endWait
  }

  /// An export to `configuration`'s endpoints (an `OTLPHTTPSender`).
  public init(configuration: OTLPPushConfiguration, endWait: Duration = .seconds(5)) {
    self.init(sender: OTLPHTTPSender(configuration: configuration), endWait: endWait)
  }

  /// Pushes session `sessionUUID` of `databasePath`: traces, then metrics.
  ///
  /// - Throws: `OTLPPushError` when the endpoint stayed unreachable or refused a request;
  ///   `OTLPSessionChanged` when the session differs from what was delivered before; the
  ///   database's errors.
  public func export(sessionUUID: String, databasePath: String) async throws {
    var filter = QueryFilter()
    filter.session = .uuid(sessionUUID)
    let report = try await OTLPPusher(databasePath: databasePath, sender: sender)
      .push(matching: filter)
    if let error = report.unreachable ?? report.refused { throw error }
    if let changed = report.changed, case .changed(let sequence) = changed.outcome {
      throw OTLPSessionChanged(endpoint: changed.endpoint, sequence: sequence)
    }
  }
}

/// A session whose request at `sequence` differs from the one `endpoint` accepted before:
/// not sent again (`sleeve export --endpoint … --resend` sends it all).
public struct OTLPSessionChanged: CommandFailure, Sendable, Equatable, CustomStringConvertible {
  /// The URL, without credentials.
  public let endpoint: String
  /// The request that differs.
  public let sequence: Int64

  /// Request `sequence` to `endpoint` differs from the one delivered.
  public init(endpoint: String, sequence: Int64) {
    self.endpoint = endpoint
    self.sequence = sequence
  }

  /// One line saying what differs and what to do.
  public var description: String {
    "request \(sequence) differs from the one \(endpoint) accepted before (the session "
      + "changed since); not sent again: --resend sends it all"
  }
  /// 69: what the endpoint holds can only be replaced (`--resend`), not added to.
  public var exitCode: ExitCode { .unavailable }
}
