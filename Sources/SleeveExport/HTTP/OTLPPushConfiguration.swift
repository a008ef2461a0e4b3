import Foundation

/// How Sleeve pushes over OTLP/HTTP: a target per signal and one retry policy, resolved from
/// its flags and the OpenTelemetry SDK's `OTEL_EXPORTER_OTLP_*` variables.
///
/// Precedence, per setting: Sleeve's flag, then the signal's own variable
/// (`OTEL_EXPORTER_OTLP_TRACES_TIMEOUT`), then the general one (`OTEL_EXPORTER_OTLP_TIMEOUT`),
/// then the default. `--endpoint` and `OTEL_EXPORTER_OTLP_ENDPOINT` are base URLs (the signal
/// path is appended); a signal's endpoint variable is used as is. There is no default
/// endpoint: pushing needs one to be named.
///
/// Defaults: timeout 10 s per attempt (the specification's), no compression, the
/// `RetryPolicy` defaults with a 60 s budget. `OTEL_EXPORTER_OTLP_PROTOCOL` may be
/// `http/json` or `http/protobuf` (Sleeve sends JSON either way, which every OTLP/HTTP
/// receiver takes); `grpc` is refused.
///
/// Example:
/// ```swift
/// let configuration = try OTLPPushConfiguration.resolve(
///   flags: OTLPPushFlags(endpoint: "http://127.0.0.1:4318"),
///   environment: ProcessInfo.processInfo.environment)
/// ```
public struct OTLPPushConfiguration: Sendable, Equatable {
  /// The target of each signal that was resolved.
  public var targets: [OTLPSignal: OTLPSignalTarget]
  /// When a failed attempt is retried.
  public var retry: RetryPolicy

  /// The deadline of one attempt when nothing sets it: 10 s, the OpenTelemetry default.
  public static let defaultTimeout = Duration.seconds(10)
  /// The longest attempt deadline accepted: an hour.
  public static let maximumTimeout = Duration.seconds(3600)

  /// A configuration with these targets and retry policy.
  public init(targets: [OTLPSignal: OTLPSignalTarget], retry: RetryPolicy = RetryPolicy()) {
    self.targets = targets
    self.retry = retry
  }

  /// The target of `signal`, or `nil` when it was not resolved.
  public func target(for signal: OTLPSignal) -> OTLPSignalTarget? { targets[signal] }

  /// The configuration for `signals` from `flags` and `environment` (pass
  /// `ProcessInfo.processInfo.environment`; nothing here reads the process's environment).
  ///
  /// Only the variables that decide a requested signal are read: a malformed
  /// `OTEL_EXPORTER_OTLP_HEADERS` replaced by `…_TRACES_HEADERS` is not an error for traces.
  ///
  /// - Throws: `OTLPConfigurationError` (exit 64) naming the flag or variable at fault.
  public static func resolve(
    flags: OTLPPushFlags, environment: [String: String],
    signals: [OTLPSignal] = OTLPSignal.allCases
  ) throws(OTLPConfigurationError) -> OTLPPushConfiguration {
    let settings = Settings(environment: environment)
    var targets: [OTLPSignal: OTLPSignalTarget] = [:]
    for signal in signals {
      try settings.checkProtocol(signal)
      let endpoint = try settings.endpoint(signal, flag: flags.endpoint)
      let headers = try settings.headers(signal)
      let timeout = try settings.timeout(signal, flag: flags.timeout)
      var compression = flags.compression ?? .none
      if flags.compression == nil { compression = try settings.compression(signal) }
      targets[signal] = OTLPSignalTarget(
        endpoint: endpoint, signal: signal, headers: headers, timeout: timeout,
        compression: compression)
    }
    var retry = RetryPolicy()
    if let budget = flags.retryBudget {
      guard budget >= .zero, budget <= RetryPolicy.maximumBudget else {
        throw .invalidRetryBudget
      }
      retry.budget = budget
    }
    return OTLPPushConfiguration(targets: targets, retry: retry)
  }

  /// The variables, with an empty value counted as unset (as the specification says).
  private struct Settings {
    let environment: [String: String]

    /// The signal's own variable if set, else the general one: its name and value.
    func value(_ specific: String, _ general: String) -> (name: String, value: String)? {
      for name in [specific, general] {
        if let value = environment[name], !value.trimmingCharacters(in: .whitespaces).isEmpty {
          return (name, value)
        }
      }
      return nil
    }

    func endpoint(_ signal: OTLPSignal, flag: String?) throws(OTLPConfigurationError)
      -> OTLPEndpoint
    {
      if let flag { return try .base(flag, source: "--endpoint") }
      guard let (name, text) = value(OTLPEnvironment.endpoint(signal), OTLPEnvironment.endpoint)
      else { throw .noEndpoint(signal: signal) }
      return name == OTLPEnvironment.endpoint
        ? try .base(text, source: name) : try .signalSpecific(text, source: name)
    }

    func headers(_ signal: OTLPSignal) throws(OTLPConfigurationError) -> OTLPHeaders {
      guard let (name, text) = value(OTLPEnvironment.headers(signal), OTLPEnvironment.headers)
      else { return OTLPHeaders() }
      return try .parse(text, variable: name)
    }

    func timeout(_ signal: OTLPSignal, flag: Duration?) throws(OTLPConfigurationError)
      -> Duration
    {
      if let flag {
        guard flag > .zero, flag <= maximumTimeout else {
          throw .invalidTimeout(source: "--timeout")
        }
        return flag
      }
      guard let (name, text) = value(OTLPEnvironment.timeout(signal), OTLPEnvironment.timeout)
      else { return defaultTimeout }
      let digits = text.trimmingCharacters(in: .whitespaces)
      guard digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }), digits.utf8.count <= 7,
        let milliseconds = Int64(digits), (1...3_600_000).contains(milliseconds)
      else { throw .invalidTimeout(source: name) }
      return .milliseconds(milliseconds)
    }

    func compression(_ signal: OTLPSignal) throws(OTLPConfigurationError) -> OTLPCompression {
      guard
        let (name, text) = value(
          OTLPEnvironment.compression(signal), OTLPEnvironment.compression)
      else { return .none }
      guard let compression = OTLPCompression(rawValue: normalized(text)) else {
        throw .invalidCompression(variable: name)
      }
      return compression
    }

    func checkProtocol(_ signal: OTLPSignal) throws(OTLPConfigurationError) {
      guard
        let (name, text) = value(OTLPEnvironment.protocol(signal), OTLPEnvironment.protocol)
      else { return }
      switch normalized(text) {
      case "http/json", "http/protobuf": return
      case "grpc": throw .grpcProtocol(variable: name)
      default: throw .unknownProtocol(variable: name)
      }
    }

    private func normalized(_ text: String) -> String {
      text.trimmingCharacters(in: .whitespaces).lowercased()
    }
  }
}
