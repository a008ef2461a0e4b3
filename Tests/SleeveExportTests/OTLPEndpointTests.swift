import SleeveExport
import Testing

@Suite struct OTLPEndpointTests {
  @Test(
    "a base endpoint gets the signal path appended with one slash, after any base path",
    arguments: [
      ("http://collector:4318", "http://collector:4318/v1/traces"),
      ("http://collector:4318/", "http://collector:4318/v1/traces"),
      ("https://otlp.example.com/otlp", "https://otlp.example.com/otlp/v1/traces"),
      ("https://otlp.example.com/otlp/", "https://otlp.example.com/otlp/v1/traces"),
      ("HTTP://127.0.0.1:4318", "http://127.0.0.1:4318/v1/traces"),
      ("http://[::1]:4318", "http://[::1]:4318/v1/traces"),
    ])
  func baseEndpointAppendsThePath(base: String, traces: String) throws {
    let endpoint = try OTLPEndpoint.base(base, source: "--endpoint")
    #expect(endpoint.url(for: .traces).absoluteString == traces)
    #expect(endpoint.display(for: .traces) == traces)
    #expect(endpoint.url(for: .metrics).absoluteString.hasSuffix("/v1/metrics"))
  }

  @Test("a signal-specific endpoint is used as is, whatever its path")
  func signalSpecificEndpointIsUsedAsIs() throws {
    let endpoint = try OTLPEndpoint.signalSpecific(
      "http://collector:4318/custom/spans", source: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    #expect(endpoint.url(for: .traces).absoluteString == "http://collector:4318/custom/spans")
    #expect(endpoint.url(for: .metrics).absoluteString == "http://collector:4318/custom/spans")
  }

  @Test("a query is kept on the request URL and left out of what is shown")
  func queryIsKeptButNotShown() throws {
    let endpoint = try OTLPEndpoint.base("http://collector:4318/?tenant=t1", source: "--endpoint")
    #expect(
      endpoint.url(for: .traces).absoluteString == "http://collector:4318/v1/traces?tenant=t1")
    #expect(endpoint.display(for: .traces) == "http://collector:4318/v1/traces")
    #expect(endpoint.display == "http://collector:4318/")
  }

  @Test(
    "an unusable endpoint is refused with the problem it has",
    arguments: [
      ("not a url", OTLPConfigurationError.EndpointProblem.notAURL),
      ("", .notAURL),
      ("localhost:4318", .scheme),
      ("ftp://collector:4318", .scheme),
      ("grpc://collector:4317", .scheme),
      ("http://", .noHost),
      ("http:///v1/traces", .noHost),
      ("http://collector:0", .badPort),
      ("http://collector:70000", .badPort),
      ("http://collector:4318/#frag", .fragment),
      ("http://user:hunter2@collector:4318", .credentials),
      ("http://token@collector:4318", .credentials),
      ("http://collector:4318/\u{1B}[31m", .notAURL),
    ])
  func unusableEndpointIsRefused(text: String, problem: OTLPConfigurationError.EndpointProblem) {
    #expect(throws: OTLPConfigurationError.invalidEndpoint(source: "--endpoint", problem: problem))
    {
      try OTLPEndpoint.base(text, source: "--endpoint")
    }
  }

  @Test("a refused endpoint's message names the source and never echoes the URL or its secret")
  func refusalNeverEchoesTheURL() {
    let hostile = "https://admin:SECRET-TOKEN@collector.internal:4318/v1/traces"
    do {
      _ = try OTLPEndpoint.signalSpecific(hostile, source: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
      Issue.record("an endpoint with credentials was accepted")
    } catch {
      let message = error.message
      #expect(message.hasPrefix("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "))
      #expect(message.contains("OTEL_EXPORTER_OTLP_HEADERS"))
      let leaks = ["SECRET", "admin", "collector.internal"].filter { message.contains($0) }
      #expect(leaks.isEmpty, "the message repeats part of the URL")
      #expect(!message.contains("\n"))
    }
  }
}
