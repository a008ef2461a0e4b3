import Foundation
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
