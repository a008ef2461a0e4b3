import SleeveStore

/// What a receiver answered to a request it accepted (HTTP 2xx).
public struct OTLPAccepted: Sendable, Equatable {
  /// Items (spans or metric data points) the receiver rejected in a partial success
  /// (`rejectedSpans`, `rejectedDataPoints`); 0 when it accepted all of them.
  public var rejected: Int64
  /// The receiver's `errorMessage` with a partial success, one line, if it gave one.
  public var message: String?
  /// How many attempts the request took (1: the first succeeded).
  public var attempts: Int

  /// An answer: `rejected` items refused, with `message`, after `attempts` attempts.
  public init(rejected: Int64 = 0, message: String? = nil, attempts: Int = 1) {
    self.rejected = rejected
    self.message = message
    self.attempts = attempts
  }
}

/// Why a request was not delivered. Its text names the endpoint (never its credentials or
/// any header value) and the last error, on one line.
public struct OTLPPushError: Error, Sendable, Equatable, CustomStringConvertible {
  /// How the request failed.
  public enum Kind: Sendable, Equatable {
    /// The receiver answered with a status that is not retried (e.g. 400, 401, 413), or a
    /// retryable one after the retries ran out.
    case rejected(status: Int)
    /// No answer: connection refused or reset, a timeout, a DNS failure, after the retries.
    case unreachable
  }

  /// How the request failed.
  public var kind: Kind
  /// The URL the request went to, without credentials.
  public var endpoint: String
  /// The receiver's message (for `rejected`) or the last transport error (`unreachable`),
  /// one line, escaped.
  public var message: String
  /// How many attempts were made.
  public var attempts: Int

  /// A failure of `kind` at `endpoint` with `message` after `attempts` attempts.
  public init(kind: Kind, endpoint: String, message: String, attempts: Int) {
    self.kind = kind
    self.endpoint = endpoint
    self.message = message
    self.attempts = attempts
  }

  /// One line: `POST http://127.0.0.1:4318/v1/traces: HTTP 400 (…) after 1 attempt`.
  public var description: String {
    let tries = attempts == 1 ? "1 attempt" : "\(attempts) attempts"
    switch kind {
    case .rejected(let status):
      return "POST \(endpoint): HTTP \(status): \(message) (after \(tries))"
    case .unreachable:
      return "POST \(endpoint): unreachable: \(message) (after \(tries))"
    }
  }
}

/// Sends one OTLP/HTTP request body for a signal, with whatever retries it was configured
/// with. `OTLPHTTPSender` is the real one; the delivery ledger depends only on this.
public protocol OTLPRequestSending: Sendable {
  /// Sends `body` (uncompressed OTLP/JSON) to `signal`'s URL: the receiver's answer once it
  /// accepted it, or why it was not delivered. Its retries have the whole budget.
  func send(_ body: [UInt8], signal: OTLPSignal) async -> Result<OTLPAccepted, OTLPPushError>

  /// Sends `body` as `send(_:signal:)` does, as one request of a push whose requests share one
  /// retry budget: what `retries` says was spent retrying before is not there to spend again.
  /// `OTLPPusher` calls this one. The default ignores `retries` (a sender that never retries).
  func send(_ body: [UInt8], signal: OTLPSignal, retries: RetryTime) async -> Result<
    OTLPAccepted, OTLPPushError
  >

  /// The URL `signal` goes to, without credentials (what the ledger records and output names).
  func endpoint(for signal: OTLPSignal) -> String
}

extension OTLPRequestSending {
  /// `send(_:signal:)`: a sender that never retries has no retry time to share.
  public func send(_ body: [UInt8], signal: OTLPSignal, retries: RetryTime) async -> Result<
    OTLPAccepted, OTLPPushError
  > {
    await send(body, signal: signal)
  }
}

extension OTLPPushError: CommandFailure {
  /// 69 when the endpoint stayed unreachable, 76 when the receiver refused the request.
  public var exitCode: ExitCode { kind == .unreachable ? .unavailable : .refused }
  /// ``description``; for an unreachable endpoint, also that the push stopped there, so that
  /// nothing after it was marked delivered.
  public var failureMessage: String? {
    kind == .unreachable ? description + "; nothing more was marked delivered" : description
  }
}
