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
    arguments: [0, 1, 1000, (1 << 20) + 17])
  func roundTrip(size: Int) async throws {
    let seed: UInt64 = 0x5EED_0000 + UInt64(size)
    // Generating, compressing, gunzipping and comparing megabytes runs off the cooperative pool,
    // so it never holds up the time-bounded loopback tests running beside it.
    let (isGzip, same) = try await OffThePool.run { () throws -> (Bool, Bool) in
      var generator = SeededGenerator(seed: seed)
      // Random 8-byte words between runs of a repeated word: both the literal and the match
      // paths of deflate, and more than one 1 MiB input chunk for the largest size.
      var original: [UInt8] = []
      original.reserveCapacity(size + 8)
      while original.count < size {
        let word = original.count % 64 < 32 ? generator.next() : 0x0706_0504_0302_0100
        withUnsafeBytes(of: word) { original.append(contentsOf: $0) }
      }
      original.removeLast(original.count - size)
      let compressed = try Gzip.compress(original)
      // Bools, not `back == original`: a failing comparison of megabyte arrays would make the
      // test library diff them, which takes minutes.
      return (compressed.starts(with: [0x1F, 0x8B]), try Self.pythonGunzip(compressed) == original)
    }
    #expect(isGzip, "not a gzip member (size \(size), seed \(seed))")
    #expect(same, "the round trip changed the bytes (size \(size), seed \(seed))")
  }

  @Test("empty input gives a valid, small gzip member")
  func emptyInput() throws {
    let compressed = try Gzip.compress([])
    #expect(compressed.starts(with: [0x1F, 0x8B]))
    #expect(compressed.count <= 32)
  }
}
