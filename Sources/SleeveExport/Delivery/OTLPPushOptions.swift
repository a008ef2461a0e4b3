/// What a push sends and how it cuts requests.
public struct OTLPPushOptions: Sendable {
  /// The defaults for a push: 5,000 spans or 1 MiB per request, a twentieth of the 20 MiB an
  /// OpenTelemetry Collector's HTTP receiver takes by default, and few enough round trips
  /// that a million outcomes cost a few hundred requests.
  public static let requestLimits = (spans: 5_000, bytes: 1 << 20)

  /// The signals sent: traces (raw rows), metrics (summaries), or both.
  public var signals: Set<OTLPSignal>
  /// Send every request again, even ones the ledger says the endpoint accepted; what was
  /// recorded for the endpoint is replaced.
  public var resend: Bool
  /// The most spans a trace request holds.
  public var spansPerRequest: Int
  /// A trace request ends at the first fire group that takes it past this many bytes.
  public var bytesPerRequest: Int
  /// How many requests may be on the wire at once (at least 1). Each is recorded as its
  /// answer comes, in whatever order: a rerun skips every request recorded, wherever it is.
  public var concurrentRequests: Int

  /// Options sending `signals`; `resend` sends what was delivered again.
  public init(
    signals: Set<OTLPSignal> = [.traces, .metrics], resend: Bool = false,
    spansPerRequest: Int = requestLimits.spans, bytesPerRequest: Int = requestLimits.bytes,
    concurrentRequests: Int = 2
  ) {
    self.concurrentRequests = concurrentRequests
    self.signals = signals
    self.resend = resend
    self.spansPerRequest = spansPerRequest
    self.bytesPerRequest = bytesPerRequest
  }
}
