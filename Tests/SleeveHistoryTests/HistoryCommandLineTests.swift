import Foundation
import SleeveTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// How the command line meets a history URL before any server answers: what writes a local
/// file refuses one at once, and a URL in `SLEEVE_DB` reaches only the commands that take
/// `--db`.
@Suite("History URLs on the command line")
struct HistoryCommandLineTests {
  /// Nothing listens on port 1: a command that tried to connect would exit 69, not 64.
  static let unreachable = "postgresql://ci:s3cret-pw@127.0.0.1:1/sleeve"

  @Test(
    "commands that write a local file refuse a history at once (64), without the password",
    arguments: [
      ["check", "--apply"],
      ["lint", "suppress", "handler-retains-owner", "A.swift:1", "--reason", "r"],
      ["lint", "unsuppress", "handler-retains-owner", "A.swift:1"],
      ["export", "--endpoint", "http://127.0.0.1:1/"], ["quarantine", "list"],
      ["rollback", "checkout.v2"], ["summarize"], ["publish", "--to", unreachable],
    ])
  func writersRefuse(arguments: [String]) async throws {
    let result = try await ChildProcess.run(
      ChildProcess.sleeveBinary, arguments + ["--db", Self.unreachable])
    #expect(result.status == 64, "\(arguments): \(result.output)")
    #expect(!result.output.contains("s3cret-pw"), "\(arguments): \(result.output)")
  }

  @Test("a history URL in SLEEVE_DB is not read by commands that take no --db")
  func environmentReachesOnlyDatabaseCommands() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ChildProcess.sleeveBinary)
    process.arguments = ["completions", "bash"]
    var environment = ProcessInfo.processInfo.environment
    environment["SLEEVE_DB"] = Self.unreachable
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitForExit()
    #expect(process.terminationStatus == 0, "\(String(decoding: output, as: UTF8.self))")
  }
}
