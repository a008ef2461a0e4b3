import Foundation

/// Everything one signal's requests need: where they go and how they are sent.
public struct OTLPSignalTarget: Sendable, Equatable {
  /// The URL requests are posted to (may hold a query; never credentials).
  public var url: URL
  /// `url` without its query: what output and the delivery ledger show.
  public var display: String
  /// Extra headers (values never shown).
  public var headers: OTLPHeaders
  /// The deadline of one attempt, from sending to the whole answer read.
  public var timeout: Duration
  /// How bodies are encoded.
  public var compression: OTLPCompression

  /// A target posting to `endpoint`'s URL for `signal`.
  public init(
    endpoint: OTLPEndpoint, signal: OTLPSignal, headers: OTLPHeaders = OTLPHeaders(),
    timeout: Duration = OTLPPushConfiguration.defaultTimeout,
    compression: OTLPCompression = .none
  ) {
    self.url = endpoint.url(for: signal)
    self.display = endpoint.display(for: signal)
    self.headers = headers
    self.timeout = timeout
    self.compression = compression
  }
}
