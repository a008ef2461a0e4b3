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

  /// Reads lines until one starts with `prefix`; returns it, or `nil` at end of output.
  func waitForLine(startingWith prefix: String) -> String? {
    while true {
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
        pending.removeSubrange(pending.startIndex...newline)
        if line.hasPrefix(prefix) { return line }
      }
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { return nil }
      pending.append(chunk)
    }
  }

  /// Sends SIGKILL and waits for the process to be gone.
  func killHard() {
    kill(process.processIdentifier, SIGKILL)
    process.waitForExit()
  }

  /// Waits for a normal exit and returns its status.
  func waitForExit() -> Int32 {
    process.waitForExit()
    return process.terminationStatus
  }
}
