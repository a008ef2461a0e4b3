/// The names of the OpenTelemetry SDK's OTLP exporter variables Sleeve reads, in one place.
///
/// A signal-specific variable (`OTEL_EXPORTER_OTLP_TRACES_*`) replaces the general one for its
/// signal, as the OpenTelemetry specification says. An empty value counts as unset.
public enum OTLPEnvironment {
  /// `OTEL_EXPORTER_OTLP_ENDPOINT`: a base URL; each signal's path is appended to it.
  public static let endpoint = "OTEL_EXPORTER_OTLP_ENDPOINT"
  /// `OTEL_EXPORTER_OTLP_HEADERS`: `name=value,name=value`, values percent-encoded.
  public static let headers = "OTEL_EXPORTER_OTLP_HEADERS"
  /// `OTEL_EXPORTER_OTLP_TIMEOUT`: milliseconds per request attempt.
  public static let timeout = "OTEL_EXPORTER_OTLP_TIMEOUT"
  /// `OTEL_EXPORTER_OTLP_COMPRESSION`: `gzip` or `none`.
  public static let compression = "OTEL_EXPORTER_OTLP_COMPRESSION"
  /// `OTEL_EXPORTER_OTLP_PROTOCOL`: `http/json`, `http/protobuf` (both send JSON here) or
  /// `grpc` (refused).
  public static let `protocol` = "OTEL_EXPORTER_OTLP_PROTOCOL"

  /// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` or `…_METRICS_ENDPOINT`: a full URL, used as is.
  public static func endpoint(_ signal: OTLPSignal) -> String { specific(signal, "ENDPOINT") }
  /// `OTEL_EXPORTER_OTLP_TRACES_HEADERS` or `…_METRICS_HEADERS`.
  public static func headers(_ signal: OTLPSignal) -> String { specific(signal, "HEADERS") }
  /// `OTEL_EXPORTER_OTLP_TRACES_TIMEOUT` or `…_METRICS_TIMEOUT`.
  public static func timeout(_ signal: OTLPSignal) -> String { specific(signal, "TIMEOUT") }
  /// `OTEL_EXPORTER_OTLP_TRACES_COMPRESSION` or `…_METRICS_COMPRESSION`.
  public static func compression(_ signal: OTLPSignal) -> String {
    specific(signal, "COMPRESSION")
  }
  /// `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` or `…_METRICS_PROTOCOL`.
  public static func `protocol`(_ signal: OTLPSignal) -> String { specific(signal, "PROTOCOL") }

  private static func specific(_ signal: OTLPSignal, _ setting: String) -> String {
    "OTEL_EXPORTER_OTLP_\(signal.rawValue.uppercased())_\(setting)"
  }
}
