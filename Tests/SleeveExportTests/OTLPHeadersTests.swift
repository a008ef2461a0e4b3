import SleeveExport
import Testing

@Suite struct OTLPHeadersTests {
  static let variable = "OTEL_EXPORTER_OTLP_HEADERS"

  @Test("entries are split on commas, trimmed, and their values percent-decoded")
  func entriesAreTrimmedAndDecoded() throws {
    let headers = try OTLPHeaders.parse(
      " Authorization = Basic%20dXNlcjpwYXNz , x-team=a%2Cb%3Dc,, x-empty= ,",
      variable: Self.variable)
    #expect(headers.names == ["Authorization", "x-team", "x-empty"])
    let decoded =
      headers.value(named: "authorization") == "Basic dXNlcjpwYXNz"
      && headers.value(named: "X-Team") == "a,b=c" && headers.value(named: "x-empty") == ""
    #expect(decoded, "a value was not trimmed or percent-decoded as expected (values not shown)")
  }

  @Test("an empty variable means no headers")
  func emptyMeansNone() throws {
    #expect(try OTLPHeaders.parse("", variable: Self.variable).names.isEmpty)
    #expect(try OTLPHeaders.parse(" , ", variable: Self.variable).names.isEmpty)
  }

  @Test(
    "a malformed entry is refused naming the variable and the entry's position",
    arguments: [
      ("a=1,novalue", 2, OTLPConfigurationError.HeaderProblem.missingEquals),
      ("=secret", 1, .emptyName),
      ("bad name=secret", 1, .invalidName),
      ("x(y)=secret", 1, .invalidName),
      ("k=sec%0D%0Aret", 1, .controlInValue),
      ("k=sec\u{7}ret", 1, .controlInValue),
      ("k=sec\nInjected: 1", 1, .controlInValue),
      ("k=100%", 1, .badPercentEscape),
      ("k=%4", 1, .badPercentEscape),
      ("k=%zzsecret", 1, .badPercentEscape),
      ("k=%FFsecret", 1, .notUTF8),
    ])
  func malformedEntryIsRefused(
    text: String, entry: Int, problem: OTLPConfigurationError.HeaderProblem
  ) {
    #expect(
      throws: OTLPConfigurationError.invalidHeaders(
        variable: Self.variable, entry: entry, problem: problem)
    ) {
      try OTLPHeaders.parse(text, variable: Self.variable)
    }
  }

  @Test(
    "a malformed headers variable's message never echoes a value",
    arguments: ["k=sec%0Aret-VALUE", "token VALUE", "k=VALUE%G1", "k=VALUE,=VALUE"])
  func refusalNeverEchoesAValue(text: String) {
    do {
      _ = try OTLPHeaders.parse(text, variable: Self.variable)
      Issue.record("a malformed variable was accepted")
    } catch {
      #expect(error.message.hasPrefix(Self.variable + ": entry "))
      #expect(!error.message.contains("VALUE"), "the message repeats the variable's text")
    }
  }

  @Test("descriptions, debug descriptions and dumps show header names but never values")
  func valuesNeverShowInDescriptions() throws {
    let headers = try OTLPHeaders.parse(
      "Authorization=Bearer%20TOP-SECRET", variable: Self.variable)
    var dumped = ""
    dump(headers, to: &dumped)
    for text in [String(describing: headers), String(reflecting: headers), dumped, "\(headers)"] {
      #expect(text.contains("Authorization"))
      #expect(!text.contains("TOP-SECRET"), "a header value shows in a description")
    }
  }
}
