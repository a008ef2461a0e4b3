import Foundation
import SleeveTestSupport

/// A `SleeveRecorderProbe` child process, with its standard output read line by line.
final class ProbeProcess {
  let process = Process()
  private let output = Pipe()
  private var pending = Data()

  /// The probe binary, built next to the test bundle by `swift build` / `swift test`.
  static var binary: URL {
    let besideTests = URL(fileURLWithPath: CommandLine.arguments[0])
      .deletingLastPathComponent().appendingPathComponent("SleeveRecorderProbe")
    if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/SleeveRecorderProbe")
  }

  init(arguments: [String]) throws {
    process.executableURL = Self.binary
    process.arguments = arguments
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    try process.run()
  }

  /// Reads lines until one starts with `prefix`; returns it, or `nil` at end of output. Each
  /// read waits on a thread of its own, so the awaiting test never holds a thread of the
  /// cooperative pool while the probe runs.
  func waitForLine(startingWith prefix: String) async throws -> String? {
    let handle = output.fileHandleForReading
    while true {
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
        pending.removeSubrange(pending.startIndex...newline)
        if line.hasPrefix(prefix) { return line }
      }
      let chunk = try await OffThePool.run { handle.availableData }
      guard !chunk.isEmpty else { return nil }
      pending.append(chunk)
    }
  }

  /// Sends SIGKILL and awaits the process's end (`Process.exited()`).
  func killHard() async {
    kill(process.processIdentifier, SIGKILL)
    await process.exited()
  }

  /// Awaits a normal exit (`Process.exited()`) and returns its status.
  func waitForExit() async -> Int32 {
    await process.exited()
    return process.terminationStatus
  }
}
