import Foundation
import SleeveTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A command that creates a database in a directory it may not write to says "permission
/// denied" (66, as `docs/guide/output.md` says), never SQLite's "unable to open database file".
@Suite("Creating a database in an unwritable directory")
struct UnwritableDirectoryTests {
  @Test(
    "demo, enable --create, migrate and merge into an unwritable directory say permission denied (66)",
    arguments: [
      ["demo", "--fires", "5", "--db", "OUT"], ["enable", "f", "--create", "--db", "OUT"],
      ["migrate", "--db", "OUT"], ["merge", "OUT", "INPUT"],
    ])
  func permissionDeniedIsNamed(command: [String]) async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    chmod(directory.path(""), 0o755)
    let input = directory.path("input.sqlite")
    try fixture.connection.execute("VACUUM INTO '\(input)'")
    chmod(input, 0o644)
    let closed = directory.path("closed")
    try FileManager.default.createDirectory(atPath: closed, withIntermediateDirectories: false)
    chmod(closed, 0o555)
    defer { chmod(closed, 0o755) }
    let binary = directory.path("sleeve")
    try FileManager.default.copyItem(atPath: ChildProcess.sleeveBinary, toPath: binary)
    chmod(binary, 0o755)
    let user =
      geteuid() == 0
      ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", binary]
      : [binary]
    let out = closed + "/sleeve.sqlite"
    let arguments = command.map { $0 == "OUT" ? out : $0 == "INPUT" ? input : $0 }
    let result = try await DatabaseFileTests.runCopiedBinary(user + arguments)
    #expect(result.status == 66, "\(command[0]): \(result.output)")
    #expect(result.output.contains("'\(out)'"), "\(result.output)")
    #expect(result.output.contains("permission denied"), "\(result.output)")
    #expect(!result.output.contains("unable to open"), "\(result.output)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }
}
