import SleeveExport
import Testing

@Suite struct OTLPSignalTests {
  @Test("each signal's path is the one the OTLP specification gives")
  func pathsFollowTheSpecification() {
    #expect(OTLPSignal.traces.path == "v1/traces")
    #expect(OTLPSignal.metrics.path == "v1/metrics")
  }
}
