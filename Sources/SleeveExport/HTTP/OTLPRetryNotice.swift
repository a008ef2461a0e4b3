/// A failed attempt that will be tried again: what `OTLPHTTPSender` tells its `onRetry`
/// observer before it waits, so a person waiting on a push sees each retry as it happens.
public struct OTLPRetryNotice: Sendable, Equatable {
  /// The URL the request went to, without credentials or query.
  public var endpoint: String
  /// The signal the request carries.
  public var signal: OTLPSignal
  /// The attempt that failed (1: the first).
  public var attempt: Int
  /// How it failed: the status the receiver answered (429, 502, 503, 504) or `.unreachable`.
  public var kind: OTLPPushError.Kind
  /// The receiver's message or the transport's error, one line, header values redacted;
  /// receiver text, so a terminal must escape it.
  public var message: String
  /// How long the sender waits before the next attempt.
  public var wait: Duration

  /// A notice that `attempt` to `endpoint` failed (`kind`, `message`) and the next comes after
  /// `wait`.
  public init(
    endpoint: String, signal: OTLPSignal, attempt: Int, kind: OTLPPushError.Kind,
    message: String, wait: Duration
  ) {
    self.endpoint = endpoint
    self.signal = signal
    self.attempt = attempt
    self.kind = kind
    self.message = message
    self.wait = wait
  }
}
