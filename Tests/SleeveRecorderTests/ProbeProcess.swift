import Foundation
import SleeveTestSupport

/// A `SleeveRecorderProbe` child process, with its standard output read line by line.
///
/// Unchecked `Sendable`: one test drives it, one call at a time, so its buffered output is
/// never read from two threads at once; `killHard(after:startingWith:then:)` hands it to a
/// thread of its own for that one call.
final class ProbeProcess: @unchecked Sendable {
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
      if let line = bufferedLine(startingWith: prefix) { return line }
      let chunk = try await OffThePool.run { handle.availableData }
      guard !chunk.isEmpty else { return nil }
      pending.append(chunk)
    }
  }

  /// Reads until `count` lines starting with `prefix` have come, runs `then`, and sends
  /// SIGKILL, all on one thread of its own; then awaits the process's end. Returns the lines
  /// read (fewer than `count` when the output ended first). The kill follows the last line by
  /// `then`'s time however busy the cooperative pool is: a `--forever` probe whose kill waited
  /// for a pool thread to resume the test kept recording for 35 s (17 s of CPU) in a full run.
  func killHard(
    after count: Int, startingWith prefix: String,
    then: @escaping @Sendable () throws -> Void = {}
  ) async throws -> [String] {
    let lines = try await OffThePool.run {
      var lines: [String] = []
      while lines.count < count, let line = self.readLine(startingWith: prefix) {
        lines.append(line)
      }
      defer { kill(self.process.processIdentifier, SIGKILL) }
      try then()
      return lines
    }
    await process.exited()
    return lines
  }

  /// The first buffered line starting with `prefix`, removed with the lines before it; `nil`
  /// when no whole buffered line does (those lines are removed too).
  private func bufferedLine(startingWith prefix: String) -> String? {
    while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
      let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
      pending.removeSubrange(pending.startIndex...newline)
      if line.hasPrefix(prefix) { return line }
    }
    return nil
  }

  /// `waitForLine(startingWith:)` blocking the calling thread: for a thread of the test's own.
  private func readLine(startingWith prefix: String) -> String? {
    let handle = output.fileHandleForReading
    while true {
      if let line = bufferedLine(startingWith: prefix) { return line }
      let chunk = handle.availableData
      guard !chunk.isEmpty else { return nil }
      pending.append(chunk)
    }
  }

  /// Awaits a normal exit (`Process.exited()`) and returns its status.
  func waitForExit() async -> Int32 {
    await process.exited()
    return process.terminationStatus
  }
}
