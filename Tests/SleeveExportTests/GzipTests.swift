import Foundation
import SleeveExport
import SleeveTestSupport
import Testing

@Suite struct GzipTests {
  /// `bytes` decompressed by Python's `gzip.decompress`, an independent gzip reader.
  static func pythonGunzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let directory = TemporaryDirectory()
    let input = directory.path("in.gz")
    let output = directory.path("out")
    try Data(bytes).write(to: URL(fileURLWithPath: input))
    let result = try ChildProcess.run(
      "/usr/bin/env",
      [
        "python3", "-c",
        "import gzip,sys; open(sys.argv[2],'wb').write(gzip.decompress(open(sys.argv[1],'rb').read()))",
        input, output,
      ])
    guard result.status == 0 else {
      Issue.record("python3 could not gunzip: \(result.output)")
      return []
    }
    return [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
  }

  @Test(
    "gzip output decompresses with an independent reader to the original bytes",
    .enabled(if: Proofs.run(when: PythonModule.isInstalled("gzip")), "needs python3"),
    arguments: [0, 1, 1000, 3 * 1024 * 1024 + 17])
  func roundTrip(size: Int) async throws {
    let seed: UInt64 = 0x5EED_0000 + UInt64(size)
    var generator = SeededGenerator(seed: seed)
    // Half random, half repetitive: both the literal and the match paths of deflate.
    let original = (0..<size).map { index in
      index % 2 == 0 ? UInt8.random(in: 0...255, using: &generator) : UInt8(index % 7)
    }
    let compressed = try Gzip.compress(original)
    #expect(compressed.starts(with: [0x1F, 0x8B]), "not a gzip member (seed \(seed))")
    let back = try await OffThePool.run { try Self.pythonGunzip(compressed) }
    // A Bool, not `back == original`: a failing comparison of megabyte arrays would make the
    // test library diff them, which takes minutes.
    let same = back == original
    #expect(same, "the round trip changed the bytes (size \(size), seed \(seed))")
  }

  @Test("empty input gives a valid, small gzip member")
  func emptyInput() throws {
    let compressed = try Gzip.compress([])
    #expect(compressed.starts(with: [0x1F, 0x8B]))
    #expect(compressed.count <= 32)
  }
}
