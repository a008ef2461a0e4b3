import Foundation
import SleeveRecorder
import Testing

@Suite("Session metadata")
struct SessionMetadataTests {
  @Test("the OS names the distribution once and the kernel with its release")
  func operatingSystem() throws {
    let metadata = SessionMetadata(name: "metadata", tags: [], environmentNames: [])
    let parts = metadata.os.components(separatedBy: "; ")
    #expect(Set(parts).count == parts.count, "no part repeated: \(metadata.os)")
    let kernel = try #require(parts.last)
    #if os(Linux)
      let release = try String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(kernel == "Linux " + release)
    #endif
    #expect(!kernel.isEmpty)
  }
}
