import Foundation

/// Rotel, a real third-party OTLP collector (PyPI `rotel`, pinned in
/// `scripts/requirements-test.txt`), receiving on loopback through `scripts/rotel-receiver`,
/// with its detailed debug log of everything it received in a file of its own.
///
/// ```swift
/// let rotel = try await RotelReceiver.start()
/// // push to rotel.baseURL …
/// #expect(try await rotel.finish() == 0)   // the log now holds every accepted request
/// ```
public final class RotelReceiver {
  /// Why the receiver did not start.
  public struct StartFailure: Error, CustomStringConvertible {
    /// What went wrong, with the receiver's standard error.
    public let description: String
  }

  /// Whether the `rotel` package is installed (`.ci/run` installs it: the proof is required).
  public static var canRun: Bool { PythonModule.isInstalled("rotel") }

  /// The wrapper script, found from the package root.
  public static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/rotel-receiver").path

  /// `http://127.0.0.1:PORT`: the base endpoint it receives on.
  public let baseURL: String
  /// Rotel's debug log: every span and metric it received.
  public let logPath: String
  private let process: Process
  private let input: Pipe
  private let directory: TemporaryDirectory

  /// Starts Rotel receiving `signal` (`traces`, `metrics` or `all`; the others answer 404),
  /// waiting (off the cooperative pool) until it accepts connections.
  ///
  /// - Throws: `StartFailure` when it cannot start or prints no URL within `WaitBounds.hang`.
  public static func start(signal: String = "all") async throws -> RotelReceiver {
    let directory = TemporaryDirectory()
    let log = directory.path("rotel.log")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: PythonModule.interpreter)
    process.arguments = [script, "--log", log, "--signal", signal]
    let input = Pipe()
    let output = Pipe()
    let errors = directory.path("stderr.txt")
    _ = FileManager.default.createFile(
      atPath: errors, contents: nil, attributes: [.posixPermissions: 0o600])
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle(forWritingAtPath: errors)
    try process.run()
    let reader = output.fileHandleForReading
    let line = try await OffThePool.run { PipeLine.first(of: reader, within: WaitBounds.hang) }
    guard let line, line.hasPrefix("http://127.0.0.1:") else {
      process.terminate()
      process.waitForExit()
      let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      throw StartFailure(description: "rotel-receiver printed no URL: \(text)")
    }
    return RotelReceiver(
      baseURL: line, logPath: log, process: process, input: input, directory: directory)
  }

  private init(
    baseURL: String, logPath: String, process: Process, input: Pipe,
    directory: TemporaryDirectory
  ) {
    self.baseURL = baseURL
    self.logPath = logPath
    self.process = process
    self.input = input
    self.directory = directory
  }

  /// Ends the receiver: it waits until everything it accepted is in its log, then stops
  /// Rotel. Returns its exit status (0: the log is complete).
  public func finish() async throws -> Int32 {
    try? input.fileHandleForWriting.close()
    let process = self.process
    return try await OffThePool.run { () -> Int32 in
      let deadline = ContinuousClock.now + WaitBounds.hang
      while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
      if process.isRunning {
        process.terminate()
        process.waitForExit()
      }
      return process.terminationStatus
    }
  }

  deinit {
    try? input.fileHandleForWriting.close()
    if process.isRunning { process.terminate() }
    process.waitForExit()
  }
}
