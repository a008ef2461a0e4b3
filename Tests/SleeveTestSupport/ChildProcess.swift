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

  /// Runs `executable` as `run` does, waiting on a thread of its own: the awaiting test gives
  /// its cooperative-pool thread back while the program runs (a blocking wait would hold one of
  /// the pool's few threads for seconds and starve the time-bounded tests beside it).
  public static func runOffThePool(_ executable: String, _ arguments: [String]) async throws
    -> Result
  {
    try await OffThePool.run { try run(executable, arguments) }
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
