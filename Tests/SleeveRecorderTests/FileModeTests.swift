import Foundation
import SleeveRecorder
import SleeveTestSupport
import Testing

@Suite("Files the recorder creates")
struct FileModeTests {
  func mode(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
  }

  @Test(
    "a link to a missing file is refused, and nothing is created where it points",
    arguments: ["missing.sqlite", "sub/../missing.sqlite"])
  func danglingSymlinkIsRefused(target: String) async throws {
    let directory = TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: directory.path("sub"), withIntermediateDirectories: true)
    let link = directory.path("rec.sqlite")
    #expect(symlink(target, link) == 0)
    let error = try #require(throws: RecorderError.self) { try Recorder(path: link) }
    #expect(error.description.contains("symbolic link to a file that does not exist"))
    #expect(!FileManager.default.fileExists(atPath: directory.path("missing.sqlite")))
  }

  @Test("a link to an existing database is followed: the recorder writes into its target, 0600")
  func linkToExistingDatabaseIsFollowed() async throws {
    let directory = TemporaryDirectory()
    let target = directory.path("real.sqlite")
    _ = try await Recorder(path: target)
    let link = directory.path("rec.sqlite")
    #expect(symlink("real.sqlite", link) == 0)
    let recorder = try await Recorder(path: link)
    let session = try await recorder.startSession(name: "linked")
    try await session.end()
    for file in [target, target + "-wal", target + "-shm"]
    where FileManager.default.fileExists(atPath: file) {
      let found = try mode(file)
      #expect(found == 0o600, "\(file) has mode \(String(found, radix: 8))")
    }
    let attributes = try FileManager.default.attributesOfItem(atPath: link)
    #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
  }
}
