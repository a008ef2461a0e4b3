import Foundation

/// Runs a program to completion for tests: its exit status and what it printed.
public enum ChildProcess {
  /// How a run ended.
  public struct Result: Sendable {
    /// The exit status.
    public let status: Int32
    /// Standard error, and standard output too unless it was sent elsewhere.
    public let output: String
  }

  /// Runs `executable` with `arguments`. Standard output goes to `standardOutput` when given
  /// (e.g. `/dev/null`, `/dev/full`), else into `output` with standard error.
  public static func run(
    _ executable: String, _ arguments: [String], standardOutput: FileHandle? = nil
  ) throws -> Result {
    let (process, pipe) = try start(executable, arguments, standardOutput: standardOutput)
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitForExit()
    return Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
  }

  /// Runs `executable` as the synchronous `run` does, on a thread of its own (`OffThePool`):
  /// the awaiting test gives its cooperative-pool thread back while the program runs. In an
  /// async test this overload is the one called (Swift prefers it there), so a test waiting
  /// for a program never stalls the tests beside it: on two cores the pool has two threads,
  /// and a blocking wait would hold one for as long as the program runs.
  public static func run(
    _ executable: String, _ arguments: [String], standardOutput: FileHandle? = nil
  ) async throws -> Result {
    try await OffThePool.run { try run(executable, arguments, standardOutput: standardOutput) }
  }

  /// `run` (async), under the name older tests use.
  public static func runOffThePool(_ executable: String, _ arguments: [String]) async throws
    -> Result
  {
    try await run(executable, arguments)
  }

  /// Runs `executable` as `run` does, but kills it after `timeout`: a hang becomes a result
  /// (`timedOut`), never a stuck test. Output is read while it runs, so a full pipe never
  /// looks like a hang.
  public static func run(
    _ executable: String, _ arguments: [String], timeout: Duration,
    standardOutput: FileHandle? = nil
  ) throws -> (result: Result, timedOut: Bool) {
    let (process, pipe) = try start(executable, arguments, standardOutput: standardOutput)
    let output = Output()
    let reader = Thread { output.set(pipe.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let deadline = ContinuousClock.now + timeout
    while process.isRunning, ContinuousClock.now < deadline { usleep(5_000) }
    let timedOut = process.isRunning
    if timedOut { kill(process.processIdentifier, SIGKILL) }
    process.waitForExit()
    let data = output.wait()
    return (
      Result(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self)),
      timedOut
    )
  }

  /// Runs `executable` as the synchronous `run(_:_:timeout:standardOutput:)` does (killed
  /// after `timeout`, output read while it runs), on a thread of its own: the deadline is kept
  /// by that thread, never delayed by a busy cooperative pool, and the pool is not held.
  public static func run(
    _ executable: String, _ arguments: [String], timeout: Duration,
    standardOutput: FileHandle? = nil
  ) async throws -> (result: Result, timedOut: Bool) {
    try await OffThePool.run {
      try run(executable, arguments, timeout: timeout, standardOutput: standardOutput)
    }
  }

  private static func start(
    _ executable: String, _ arguments: [String], standardOutput: FileHandle?
  ) throws -> (Process, Pipe) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = standardOutput ?? pipe
    process.standardError = pipe
    try process.run()
    return (process, pipe)
  }

  /// What a reader thread read, handed over once.
  private final class Output: @unchecked Sendable {
    // Safe: `data` is written once by the reader thread before `done.signal()` and read only
    // after `done.wait()` returns, so the semaphore orders every access.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    func set(_ read: Data) {
      data = read
      done.signal()
    }

    func wait() -> Data {
      done.wait()
      return data
    }
  }

  /// The `sleeve` binary built next to the running test bundle.
  public static var sleeveBinary: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("sleeve").path
  }
}
