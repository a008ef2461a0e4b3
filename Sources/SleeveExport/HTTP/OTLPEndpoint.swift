import Foundation

/// Where OTLP/HTTP requests go: a base endpoint to which each signal's path is appended
/// (`--endpoint`, `OTEL_EXPORTER_OTLP_ENDPOINT`), or a signal's own URL used as is
/// (`OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), as the OpenTelemetry exporter specification says.
///
/// Parsing refuses, with an `OTLPConfigurationError` that names the source and never echoes
/// the text: something that is not a URL, a scheme other than http/https, no host, a port
/// outside 1–65535, a `#fragment`, and credentials (`user:pass@`: they belong in
/// `OTEL_EXPORTER_OTLP_HEADERS`). A query is kept on the request but left out of `display`.
///
/// Example: the base `http://collector:4318/otlp/` sends traces to
/// `http://collector:4318/otlp/v1/traces`.
public struct OTLPEndpoint: Sendable, Equatable {
  /// Whether the signal path is appended.
  public enum Form: Sendable, Equatable {
    /// A base URL: `url(for:)` appends `v1/traces` or `v1/metrics` to its path.
    case base
    /// A signal's full URL: `url(for:)` returns it unchanged.
    case signalSpecific
  }

  /// Whether the signal path is appended.
  public let form: Form
  private let scheme: String
  private let authority: String
  private let path: String
  private let query: String?

  /// A base endpoint from `text`, read from `source` (the flag or variable, named in errors).
  ///
  /// - Throws: `OTLPConfigurationError.invalidEndpoint` when `text` is not a usable URL.
  public static func base(_ text: String, source: String) throws(OTLPConfigurationError)
    -> OTLPEndpoint
  {
    try OTLPEndpoint(text, source: source, form: .base)
  }

  /// A signal-specific endpoint from `text`, used as is, read from `source`.
  ///
  /// - Throws: `OTLPConfigurationError.invalidEndpoint` when `text` is not a usable URL.
  public static func signalSpecific(_ text: String, source: String)
    throws(OTLPConfigurationError) -> OTLPEndpoint
  {
    try OTLPEndpoint(text, source: source, form: .signalSpecific)
  }

  private init(_ raw: String, source: String, form: Form) throws(OTLPConfigurationError) {
    func refuse(_ problem: OTLPConfigurationError.EndpointProblem) -> OTLPConfigurationError {
      .invalidEndpoint(source: source, problem: problem)
    }
    let text = raw.trimmingCharacters(in: .whitespaces)
    guard !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }),
      let parts = URLComponents(string: text), let scheme = parts.scheme?.lowercased()
    else { throw refuse(.notAURL) }
    guard scheme == "http" || scheme == "https" else { throw refuse(.scheme) }
    guard parts.percentEncodedUser == nil, parts.percentEncodedPassword == nil else {
      throw refuse(.credentials)
    }
    guard let host = parts.percentEncodedHost, !host.isEmpty else { throw refuse(.noHost) }
    if let port = parts.port, !(1...65535).contains(port) { throw refuse(.badPort) }
    guard parts.percentEncodedFragment == nil else { throw refuse(.fragment) }
    let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    self.form = form
    self.scheme = scheme
    self.authority = parts.port.map { "\(bracketed):\($0)" } ?? bracketed
    self.path = parts.percentEncodedPath
    self.query = parts.percentEncodedQuery
  }

  /// The URL `signal`'s requests go to: the base path with the signal path appended (one
  /// slash between them), or the signal-specific URL as it was given.
  public func url(for signal: OTLPSignal) -> URL {
    let text = prefix(for: signal) + (query.map { "?" + $0 } ?? "")
    // Every part was parsed by URLComponents and is re-joined in its percent-encoded form.
    return URL(string: text) ?? URL(fileURLWithPath: "/")
  }

  /// `url(for:)` without the query: what output, logs and the delivery ledger show.
  public func display(for signal: OTLPSignal) -> String { prefix(for: signal) }

  /// The endpoint as given, without the query (never credentials: they are refused).
  public var display: String { "\(scheme)://\(authority)\(path)" }

  private func prefix(for signal: OTLPSignal) -> String {
    switch form {
    case .signalSpecific:
      return display
    case .base:
      let base = path.hasSuffix("/") ? String(path.dropLast()) : path
      return "\(scheme)://\(authority)\(base)/\(signal.path)"
    }
  }
}
