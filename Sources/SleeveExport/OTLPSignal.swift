/// The OpenTelemetry signals Sleeve sends over OTLP/HTTP.
public enum OTLPSignal: String, Sendable, CaseIterable, Hashable {
  /// Spans: a span per fire, a child span per handler invocation (`POST /v1/traces`).
  case traces
  /// Metrics from a session's summaries (`POST /v1/metrics`).
  case metrics

  /// The path OTLP/HTTP appends to a base endpoint for this signal: `v1/traces`, `v1/metrics`.
  public var path: String { "v1/" + rawValue }
}
