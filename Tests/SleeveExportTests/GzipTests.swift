import Foundation
import SleeveExport
import SleeveTestSupport
import Testing

/// The round trip through an independent reader (Python's `gzip.decompress` in the loopback
/// receiver), empty, small and over one 1 MiB input chunk, is in `OTLPHTTPSenderTests`.
@Suite struct GzipTests {
  @Test("empty input gives a valid, small gzip member")
  func emptyInput() throws {
    let compressed = try Gzip.compress([])
    #expect(compressed.starts(with: [0x1F, 0x8B]))
    #expect(compressed.count <= 32)
  }
}
