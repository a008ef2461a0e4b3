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
    "a path that is a dangling symlink is followed: its target and the WAL files are created 0600",
    arguments: ["missing.sqlite", "sub/../missing.sqlite"])
  func danglingSymlinkTargetIsOwnerOnly(target: String) async throws {
    let directory = TemporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: directory.path("sub"), withIntermediateDirectories: true)
    let link = directory.path("rec.sqlite")
    #expect(symlink(target, link) == 0)
    let recorder = try Recorder(path: link)
    let session = try recorder.startSession(name: "linked")
    try await session.flush()
    let created = directory.path("missing.sqlite")
    for file in [created, created + "-wal", created + "-shm"] {
      let found = try mode(file)
      #expect(found == 0o600, "\(file) has mode \(String(found, radix: 8))")
    }
    try await session.end()
    let attributes = try FileManager.default.attributesOfItem(atPath: link)
    #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
  }
}
