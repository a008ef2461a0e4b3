/// How a request body is encoded on the wire.
public enum OTLPCompression: String, Sendable, CaseIterable, Hashable {
  /// The body as is (the OpenTelemetry default).
  case none
  /// The body gzipped, sent with `Content-Encoding: gzip`.
  case gzip
}
