import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Sends OTLP/JSON request bodies over HTTP with retries: the real `OTLPRequestSending`.
///
/// Each attempt is a `POST` with `Content-Type: application/json`, `Content-Encoding: gzip`
/// when the target compresses, and the target's headers; it ends within the target's timeout
/// however the receiver behaves (one that accepts and never answers, or trickles bytes,
/// included). Then:
/// - 2xx: delivered; a partial success (`rejectedSpans`/`rejectedDataPoints`, `errorMessage`)
///   is reported in `OTLPAccepted`.
/// - 429, 502, 503, 504, and no answer (refused, reset, timed out): retried as `RetryPolicy`
///   says, honouring `Retry-After`, within the retry budget.
/// - any other status: fails at once, with the receiver's message (a `google.rpc.Status`
///   `message`, else the text body), one line of at most a few hundred bytes.
///
/// Response bodies are read up to 64 KiB. Header values never appear in an error: not from
/// Sleeve's own text, and not from the receiver's, where every configured value (and its
/// usual encodings) is replaced by `[redacted]` before anything prints or records it
/// (`HeaderRedaction`).
///
/// Sendable: every stored property is an immutable Sendable value or the Sendable transport.
public final class OTLPHTTPSender: OTLPRequestSending {
  /// The targets and retry policy this sender uses.
  public let configuration: OTLPPushConfiguration
  private let jitter: @Sendable () -> Double
  private let onRetry: @Sendable (OTLPRetryNotice) -> Void
  private let transport: HTTPTransport

  /// A sender for `configuration`; `jitter` returns uniform values in 0..<1 (inject a seeded
  /// source in tests); `onRetry` hears of every failed attempt that will be tried again, just
  /// before the wait (from the task sending, possibly several at once).
  public init(
    configuration: OTLPPushConfiguration,
    jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    onRetry: @escaping @Sendable (OTLPRetryNotice) -> Void = { _ in }
  ) {
    self.configuration = configuration
    self.jitter = jitter
    self.onRetry = onRetry
    self.transport = HTTPTransport()
  }

  /// The URL `signal` goes to, without its query; `(no endpoint for metrics)` when the
  /// configuration has no target for it.
  public func endpoint(for signal: OTLPSignal) -> String {
    configuration.target(for: signal)?.display ?? "(no endpoint for \(signal.rawValue))"
  }

  /// Sends `body` (uncompressed OTLP/JSON) to `signal`'s target, retrying as configured: the
  /// retries of this one request have the whole budget.
  public func send(_ body: [UInt8], signal: OTLPSignal) async -> Result<
    OTLPAccepted, OTLPPushError
  > {
    await send(body, signal: signal, retries: RetryTime())
  }

  /// Sends `body` to `signal`'s target, retrying as configured within what is left of the
  /// budget `retries` shares among a push's requests (its time spent retrying, in all).
  public func send(_ body: [UInt8], signal: OTLPSignal, retries: RetryTime) async -> Result<
    OTLPAccepted, OTLPPushError
  > {
    guard let target = configuration.target(for: signal) else {
      return .failure(
        OTLPPushError(
          kind: .unreachable, endpoint: endpoint(for: signal),
          message: "no endpoint configured for \(signal.rawValue)", attempts: 0))
    }
    let request = Self.request(body, to: target)
    let redaction = HeaderRedaction(headers: target.headers)
    let clock = ContinuousClock()
    let start = clock.now
    var attempt = 0
    var retrying = false
    defer { if retrying { retries.end(at: clock.now) } }
    while true {
      attempt += 1
      let outcome = await transport.perform(request, deadline: target.timeout)
      func failure(_ kind: OTLPPushError.Kind, _ message: String) -> Result<
        OTLPAccepted, OTLPPushError
      > {
        .failure(
          OTLPPushError(kind: kind, endpoint: target.display, message: message, attempts: attempt))
      }
      let kind: OTLPPushError.Kind
      let message: String
      var retryAfter: Duration? = nil
      switch outcome {
      case .answered(let status, _, let answer) where (200..<300).contains(status):
        let (rejected, note) = OTLPResponseBody.partialSuccess(
          answer, signal: signal, redacting: redaction)
        return .success(OTLPAccepted(rejected: rejected, message: note, attempts: attempt))
      case .answered(let status, let header, let answer) where Self.retryable.contains(status):
        kind = .rejected(status: status)
        message =
          OTLPResponseBody.failureMessage(answer, redacting: redaction) ?? Self.statusText(status)
        retryAfter = header.flatMap { RetryAfter.delay($0, now: Date()) }
      case .answered(let status, _, let answer):
        let text =
          (300..<400).contains(status)
          ? "a redirect, not followed (point the endpoint at the receiver itself)"
          : OTLPResponseBody.failureMessage(answer, redacting: redaction)
            ?? Self.statusText(status)
        return failure(.rejected(status: status), text)
      case .failed(let reason):
        kind = .unreachable
        message = redaction.apply(reason)
      }
      if Task.isCancelled {
        return failure(kind, message == "cancelled" ? message : message + "; cancelled")
      }
      if !retrying {
        retries.begin(at: start)
        retrying = true
      }
      let step = configuration.retry.step(
        afterAttempt: attempt, elapsed: retries.spent(at: clock.now), retryAfter: retryAfter,
        unit: jitter())
      switch step {
      case .stop(let reason):
        return failure(kind, message + "; " + reason)
      case .wait(let wait):
        onRetry(
          OTLPRetryNotice(
            endpoint: target.display, signal: signal, attempt: attempt, kind: kind,
            message: message, wait: wait))
        do {
          try await Task.sleep(for: wait)
        } catch {
          return failure(kind, message + "; cancelled")
        }
      }
    }
  }

  /// The statuses OTLP/HTTP retries: 429, 502, 503, 504.
  static let retryable: Set<Int> = [429, 502, 503, 504]

  private static func statusText(_ status: Int) -> String {
    HTTPURLResponse.localizedString(forStatusCode: status)
  }

  private static func request(_ body: [UInt8], to target: OTLPSignalTarget) -> HTTPPost {
    var headers = target.headers.fields.map { (name: $0.name, value: $0.value) }
    headers.append((name: "Content-Type", value: "application/json"))
    var payload = body
    if target.compression == .gzip, let compressed = try? Gzip.compress(body) {
      // A gzip failure (zlib out of memory) sends the body as is, which is still correct.
      payload = compressed
      headers.append((name: "Content-Encoding", value: "gzip"))
    }
    return HTTPPost(url: target.url.absoluteString, headers: headers, body: payload)
  }
}
