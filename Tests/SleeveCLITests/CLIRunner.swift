import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Runs `sleeve` in-process with a capturing console.
struct CLIRunner {
  struct Result {
    let exit: Int32
    let out: String
    let error: String
  }

  static func run(_ arguments: [String], environment: [String: String] = [:]) async -> Result {
    let console = Console.capturing(environment: environment)
    let code = await SleeveCLI.run(arguments, console: console)
    return Result(exit: code.rawValue, out: console.capturedOutput, error: console.capturedError)
  }

  /// Runs the built `sleeve` binary with `arguments` in a child process (the environment is
  /// this process's without its `OTEL_*` variables, plus `environment`), waiting on a thread of its own: heavy commands (a
  /// demo, a large export, a push) then never hold one of the cooperative pool's few threads,
  /// which time-bounded tests beside them need.
  static func runChild(_ arguments: [String], environment: [String: String] = [:]) async throws
    -> Result
  {
    let directory = TemporaryDirectory()
    let (out, error) = (directory.path("out"), directory.path("err"))
    let exit = try await OffThePool.run { () -> Int32 in
      for path in [out, error] {
        _ = FileManager.default.createFile(
          atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
      }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: ChildProcess.sleeveBinary)
      process.arguments = arguments
      // The OpenTelemetry variables of the machine running the tests never leak in.
      process.environment = ProcessInfo.processInfo.environment.filter {
        !$0.key.hasPrefix("OTEL_")
      }.merging(environment) { $1 }
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = FileHandle(forWritingAtPath: out)
      process.standardError = FileHandle(forWritingAtPath: error)
      try process.run()
      process.waitForExit()
      return process.terminationStatus
    }
    return Result(
      exit: exit, out: try String(contentsOfFile: out, encoding: .utf8),
      error: try String(contentsOfFile: error, encoding: .utf8))
  }

  /// Runs `arguments` and expects the usage error every command gives: exit 64, nothing on
  /// standard output, and on standard error `Error: message`, the usage line of `command`
  /// (the top level's for `nil`) and a pointer to its help.
  static func expectUsageError(
    _ arguments: [String], _ message: String, command: String?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async {
    let result = await run(arguments)
    let spec = SleeveCLI.commands.first { $0.spec.name == command }?.spec
    let usage = spec?.usage ?? "sleeve [--db <path>] [--format <format>] <subcommand>"
    let help = command.map { "sleeve \($0) --help" } ?? "sleeve --help"
    #expect(result.exit == 64, sourceLocation: sourceLocation)
    #expect(result.out.isEmpty, sourceLocation: sourceLocation)
    #expect(
      result.error == "Error: \(message)\nUsage: \(usage)\n  See '\(help)' for more information.\n",
      sourceLocation: sourceLocation)
  }

  /// The golden file `name` next to this test target, or `nil` when missing.
  static func golden(_ name: String) -> String? {
    try? String(contentsOf: goldenURL(name), encoding: .utf8)
  }

  /// Writes a golden file (only when `SLEEVE_UPDATE_GOLDEN` is set), and then fails the test
  /// that asked: a run that rewrites goldens proves nothing, so it can never pass by mistake.
  static func updateGoldenIfAsked(
    _ name: String, with text: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard ProcessInfo.processInfo.environment["SLEEVE_UPDATE_GOLDEN"] != nil else { return }
    try? text.write(to: goldenURL(name), atomically: true, encoding: .utf8)
    let message: Comment =
      "rewrote Golden/\(name) (SLEEVE_UPDATE_GOLDEN is set): review the diff, then run again without it"
    Issue.record(message, sourceLocation: sourceLocation)
  }

  private static func goldenURL(_ name: String) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden").appendingPathComponent(name)
  }
}
