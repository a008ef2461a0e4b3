import SleeveStore

/// Why Sleeve's push settings (its flags and the `OTEL_EXPORTER_OTLP_*` variables) cannot be
/// used.
///
/// Its `message` is one line naming the flag or variable at fault and never any value read
/// from it: an endpoint may carry credentials and a header a token, so the reasons are fixed
/// texts (`EndpointProblem`, `HeaderProblem`), never pieces of the input. The CLI exits 64 on
/// it.
///
/// Example: `OTEL_EXPORTER_OTLP_HEADERS: entry 2 has no '=' (expected name=value,name=value)`.
public enum OTLPConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What is wrong with an endpoint URL.
  public enum EndpointProblem: Sendable, Equatable {
    /// It does not parse as a URL.
    case notAURL
    /// Its scheme is neither `http` nor `https`.
    case scheme
    /// It has no host.
    case noHost
    /// Its port is outside 1–65535.
    case badPort
    /// It has a `#fragment`.
    case fragment
    /// It carries `user:password@`.
    case credentials
  }

  /// What is wrong with one entry of a headers variable.
  public enum HeaderProblem: Sendable, Equatable {
    /// The entry has no `=`.
    case missingEquals
    /// The name before `=` is empty.
    case emptyName
    /// The name holds a character an HTTP header name cannot (RFC 9110 token).
    case invalidName
    /// The value holds CR, LF or another control byte (raw or percent-encoded).
    case controlInValue
    /// A `%` is not followed by two hex digits.
    case badPercentEscape
    /// The percent-decoded value is not UTF-8.
    case notUTF8
  }

  /// No endpoint for `signal`: no `--endpoint`, no `OTEL_EXPORTER_OTLP_ENDPOINT` and no
  /// signal-specific endpoint variable.
  case noEndpoint(signal: OTLPSignal)
  /// The endpoint from `source` (a flag or a variable name) is unusable.
  case invalidEndpoint(source: String, problem: EndpointProblem)
  /// Entry `entry` (counted from 1) of the headers variable `variable` is malformed.
  case invalidHeaders(variable: String, entry: Int, problem: HeaderProblem)
  /// The timeout from `source` is not a whole number of milliseconds from 1 to 3 600 000.
  case invalidTimeout(source: String)
  /// The compression from `variable` is neither `gzip` nor `none`.
  case invalidCompression(variable: String)
  /// `variable` asks for OTLP/gRPC, which Sleeve does not speak.
  case grpcProtocol(variable: String)
  /// `variable` names a protocol other than `http/json`, `http/protobuf` or `grpc`.
  case unknownProtocol(variable: String)
  /// The retry budget is negative or longer than a day.
  case invalidRetryBudget

  /// The one-line text the CLI prints after `Error: `.
  public var message: String {
    switch self {
    case .noEndpoint(let signal):
      let specific = OTLPEnvironment.endpoint(signal)
      return
        "no OTLP endpoint for \(signal.rawValue): pass --endpoint URL or set "
        + "\(OTLPEnvironment.endpoint) (or \(specific))"
    case .invalidEndpoint(let source, let problem):
      return "\(source): " + Self.text(problem)
    case .invalidHeaders(let variable, let entry, let problem):
      return "\(variable): entry \(entry) " + Self.text(problem)
    case .invalidTimeout(let source):
      return "\(source): must be a whole number of milliseconds from 1 to 3600000"
    case .invalidCompression(let variable):
      return "\(variable): must be gzip or none"
    case .grpcProtocol(let variable):
      return
        "\(variable): grpc is not supported; Sleeve sends OTLP/HTTP (JSON): use http/json or "
        + "http/protobuf and the receiver's HTTP port (usually 4318)"
    case .unknownProtocol(let variable):
      return "\(variable): must be http/json or http/protobuf"
    case .invalidRetryBudget:
      return "--retry-budget: must be from 0 (no retries) to 86400 seconds"
    }
  }

  /// The same as `message`.
  public var description: String { message }

  private static func text(_ problem: EndpointProblem) -> String {
    switch problem {
    case .notAURL: "not a URL (expected http://host:port or https://host:port)"
    case .scheme: "the scheme must be http or https (e.g. http://localhost:4318)"
    case .noHost: "the URL has no host"
    case .badPort: "the port must be from 1 to 65535"
    case .fragment: "the URL must not have a #fragment"
    case .credentials:
      "the URL must not carry credentials (user:password@); "
        + "put them in OTEL_EXPORTER_OTLP_HEADERS (e.g. Authorization=Basic%20…)"
    }
  }

  private static func text(_ problem: HeaderProblem) -> String {
    switch problem {
    case .missingEquals: "has no '=' (expected name=value,name=value)"
    case .emptyName: "has an empty name"
    case .invalidName: "has a name that is not a valid HTTP header name"
    case .controlInValue: "has a value with a control character (CR, LF, …)"
    case .badPercentEscape: "has a value with a '%' not followed by two hex digits"
    case .notUTF8: "has a value that is not UTF-8 once percent-decoded"
    }
  }
}

extension OTLPConfigurationError: CommandFailure {
  /// 64: the flags or variables are a usage mistake.
  public var exitCode: ExitCode { .usage }
  /// ``message``.
  public var failureMessage: String? { message }
}
