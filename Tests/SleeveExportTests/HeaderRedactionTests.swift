import Testing

@testable import SleeveExport

@Suite("Configured header values are redacted from receiver text")
struct HeaderRedactionTests {
  @Test("a short value is redacted where it stands alone, never inside a word or a number")
  func shortValuesOnlyAsWholeTokens() throws {
    let headers = try OTLPHeaders.parse(
      "x-debug=on,x-shard=1,authorization=Bearer%20tok-3f9a7c2e51d8", variable: "H")
    let redaction = HeaderRedaction(headers: headers)
    let text = "connection refused (debug ON, shard 1 of 10); tok-3f9a7c2e51d8 rejected"
    #expect(
      redaction.apply(text)
        == "connection refused (debug [redacted], shard [redacted] of 10); [redacted] rejected")
  }

  @Test("a value of minimumPartLength bytes or more is redacted wherever it appears")
  func longValuesEverywhere() throws {
    let headers = try OTLPHeaders.parse("x-api-key=k3ysecret", variable: "H")
    let redaction = HeaderRedaction(headers: headers)
    #expect(redaction.apply("prefixk3ysecretsuffix") == "prefix[redacted]suffix")
  }
}
