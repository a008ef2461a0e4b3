import SleeveExport
import Testing

@Suite struct OTLPPushConfigurationTests {
  static let general = "http://general:4318"

  func resolve(_ environment: [String: String], flags: OTLPPushFlags = OTLPPushFlags())
    throws -> OTLPPushConfiguration
  {
    try OTLPPushConfiguration.resolve(flags: flags, environment: environment)
  }

  @Test("the endpoint comes from the flag, else the signal's variable, else the general one")
  func endpointPrecedence() throws {
    let environment = [
      "OTEL_EXPORTER_OTLP_ENDPOINT": Self.general,
      "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://traces:4318/spans",
    ]
    let fromEnvironment = try resolve(environment)
    #expect(fromEnvironment.target(for: .traces)?.display == "http://traces:4318/spans")
    #expect(fromEnvironment.target(for: .metrics)?.display == "http://general:4318/v1/metrics")
    let fromFlag = try resolve(environment, flags: OTLPPushFlags(endpoint: "http://flag:4318/base"))
    #expect(fromFlag.target(for: .traces)?.display == "http://flag:4318/base/v1/traces")
    #expect(fromFlag.target(for: .metrics)?.display == "http://flag:4318/base/v1/metrics")
  }

  @Test("no endpoint in a flag or any variable is its own error, naming the signal")
  func noEndpointIsItsOwnError() {
    #expect(throws: OTLPConfigurationError.noEndpoint(signal: .traces)) {
      try resolve(["OTEL_EXPORTER_OTLP_HEADERS": "a=b"])
    }
    #expect(throws: OTLPConfigurationError.noEndpoint(signal: .metrics)) {
      try resolve(["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://traces:4318/v1/traces"])
    }
    #expect(throws: Never.self) {
      try OTLPPushConfiguration.resolve(
        flags: OTLPPushFlags(),
        environment: ["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://traces:4318/v1/traces"],
        signals: [.traces])
    }
  }

  @Test("an empty variable counts as unset")
  func emptyVariableIsUnset() throws {
    let configuration = try resolve([
      "OTEL_EXPORTER_OTLP_ENDPOINT": Self.general, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "",
      "OTEL_EXPORTER_OTLP_TIMEOUT": " ", "OTEL_EXPORTER_OTLP_HEADERS": "",
    ])
    #expect(configuration.target(for: .traces)?.display == "http://general:4318/v1/traces")
    #expect(configuration.target(for: .traces)?.timeout == .seconds(10))
  }

  @Test("the timeout comes from the flag, else the signal's variable, else the general one, in ms")
  func timeoutPrecedence() throws {
    var environment = ["OTEL_EXPORTER_OTLP_ENDPOINT": Self.general]
    #expect(try resolve(environment).target(for: .traces)?.timeout == .seconds(10))
    environment["OTEL_EXPORTER_OTLP_TIMEOUT"] = "2500"
    #expect(try resolve(environment).target(for: .traces)?.timeout == .milliseconds(2500))
    environment["OTEL_EXPORTER_OTLP_METRICS_TIMEOUT"] = "700"
    let both = try resolve(environment)
    #expect(both.target(for: .traces)?.timeout == .milliseconds(2500))
    #expect(both.target(for: .metrics)?.timeout == .milliseconds(700))
    let flagged = try resolve(environment, flags: OTLPPushFlags(timeout: .seconds(3)))
    #expect(flagged.target(for: .metrics)?.timeout == .seconds(3))
  }

  @Test(
    "a timeout that is not 1 to 3600000 whole milliseconds is refused naming its variable",
    arguments: ["0", "-5", "1.5", "10s", "3600001", "99999999999999999999999"])
  func badTimeoutIsRefused(text: String) {
    #expect(throws: OTLPConfigurationError.invalidTimeout(source: "OTEL_EXPORTER_OTLP_TIMEOUT")) {
      try resolve(["OTEL_EXPORTER_OTLP_ENDPOINT": Self.general, "OTEL_EXPORTER_OTLP_TIMEOUT": text])
    }
  }

  @Test("a timeout or retry budget flag out of range is refused")
  func badFlagsAreRefused() {
    let environment = ["OTEL_EXPORTER_OTLP_ENDPOINT": Self.general]
    #expect(throws: OTLPConfigurationError.invalidTimeout(source: "--timeout")) {
      try resolve(environment, flags: OTLPPushFlags(timeout: .zero))
    }
    #expect(throws: OTLPConfigurationError.invalidRetryBudget) {
      try resolve(environment, flags: OTLPPushFlags(retryBudget: .seconds(-1)))
    }
    #expect(throws: OTLPConfigurationError.invalidRetryBudget) {
      try resolve(environment, flags: OTLPPushFlags(retryBudget: .seconds(86_401)))
    }
  }

  @Test("the retry budget defaults to 60 s and the flag sets it, 0 meaning no retries")
  func retryBudget() throws {
    let environment = ["OTEL_EXPORTER_OTLP_ENDPOINT": Self.general]
    #expect(try resolve(environment).retry.budget == .seconds(60))
    #expect(
      try resolve(environment, flags: OTLPPushFlags(retryBudget: .zero)).retry.budget == .zero)
  }

  @Test("compression comes from the flag, else the signal's variable, else the general one")
  func compressionPrecedence() throws {
    var environment = ["OTEL_EXPORTER_OTLP_ENDPOINT": Self.general]
    #expect(try resolve(environment).target(for: .traces)?.compression == OTLPCompression.none)
    environment["OTEL_EXPORTER_OTLP_COMPRESSION"] = "gzip"
    environment["OTEL_EXPORTER_OTLP_TRACES_COMPRESSION"] = "none"
    let configuration = try resolve(environment)
    #expect(configuration.target(for: .traces)?.compression == OTLPCompression.none)
    #expect(configuration.target(for: .metrics)?.compression == .gzip)
    let flagged = try resolve(environment, flags: OTLPPushFlags(compression: .gzip))
    #expect(flagged.target(for: .traces)?.compression == .gzip)
    environment["OTEL_EXPORTER_OTLP_METRICS_COMPRESSION"] = "brotli"
    #expect(
      throws: OTLPConfigurationError.invalidCompression(
        variable: "OTEL_EXPORTER_OTLP_METRICS_COMPRESSION")
    ) { try resolve(environment) }
  }

  @Test("a signal's headers variable replaces the general one for that signal only")
  func headersPrecedence() throws {
    let configuration = try resolve([
      "OTEL_EXPORTER_OTLP_ENDPOINT": Self.general,
      "OTEL_EXPORTER_OTLP_HEADERS": "x-general=1,x-both=general",
      "OTEL_EXPORTER_OTLP_TRACES_HEADERS": "x-both=traces",
    ])
    #expect(configuration.target(for: .traces)?.headers.names == ["x-both"])
    #expect(configuration.target(for: .metrics)?.headers.names == ["x-general", "x-both"])
    let replaced = configuration.target(for: .traces)?.headers.value(named: "x-both") == "traces"
    #expect(replaced, "the traces value is not the signal variable's (values not shown)")
  }

  @Test("a malformed headers variable is refused naming it, even when only one signal uses it")
  func malformedHeadersNameTheVariable() {
    #expect(
      throws: OTLPConfigurationError.invalidHeaders(
        variable: "OTEL_EXPORTER_OTLP_METRICS_HEADERS", entry: 1, problem: .missingEquals)
    ) {
      try resolve([
        "OTEL_EXPORTER_OTLP_ENDPOINT": Self.general,
        "OTEL_EXPORTER_OTLP_METRICS_HEADERS": "oops",
      ])
    }
  }

  @Test(
    "http/json and http/protobuf are accepted, grpc is refused with its own error",
    arguments: [
      ("http/json", nil), ("http/protobuf", nil), (" HTTP/PROTOBUF ", nil),
      ("grpc", OTLPConfigurationError.grpcProtocol(variable: "OTEL_EXPORTER_OTLP_PROTOCOL")),
      ("http", .unknownProtocol(variable: "OTEL_EXPORTER_OTLP_PROTOCOL")),
    ])
  func protocolChoice(text: String, error: OTLPConfigurationError?) {
    let environment = [
      "OTEL_EXPORTER_OTLP_ENDPOINT": Self.general, "OTEL_EXPORTER_OTLP_PROTOCOL": text,
    ]
    if let error {
      #expect(throws: error) { try resolve(environment) }
    } else {
      #expect(throws: Never.self) { try resolve(environment) }
    }
  }

  @Test("a signal's protocol variable is read too, and its grpc is refused")
  func signalProtocolIsRead() {
    #expect(
      throws: OTLPConfigurationError.grpcProtocol(variable: "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
    ) {
      try resolve([
        "OTEL_EXPORTER_OTLP_ENDPOINT": Self.general,
        "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json",
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc",
      ])
    }
  }

  @Test("every configuration error is one line")
  func errorsAreOneLine() {
    let errors: [OTLPConfigurationError] = [
      .noEndpoint(signal: .metrics), .invalidEndpoint(source: "--endpoint", problem: .credentials),
      .invalidHeaders(variable: "V", entry: 3, problem: .controlInValue),
      .invalidTimeout(source: "V"), .invalidCompression(variable: "V"),
      .grpcProtocol(variable: "V"), .unknownProtocol(variable: "V"), .invalidRetryBudget,
    ]
    for error in errors {
      #expect(!error.message.isEmpty && !error.message.contains("\n"), "\(error)")
    }
  }
}
