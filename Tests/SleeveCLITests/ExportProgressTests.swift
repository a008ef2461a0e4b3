import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `export --out`, `merge`, `summarize` and `prune` show their progress on standard error when
/// that is a terminal, and only then: a line redrawn in place once the work has lasted a
/// second, cleared when done, so what follows is what a pipe gets.
@Suite("Progress lines")
struct ExportProgressTests {
  static func export(format: String, errorIsTerminal: Bool, out: Bool = true) async throws
    -> (CLIRunner.Result, FixtureDatabase)
  {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let console = Console.capturing(errorIsTerminal: errorIsTerminal)
    let code = await SleeveCLI.run(
      ["export", "--db", fixture.path, "--session", "all", "--format", format]
        + (out ? ["--out", directory.path("out." + format)] : []),
      console: console)
    return (
      CLIRunner.Result(
        exit: code.rawValue, out: console.capturedOutput, error: console.capturedError),
      fixture
    )
  }

  /// Runs each long-running command on a fresh fixture with `console`, standard error returned.
  static func longCommands(_ console: @escaping () -> Console) async throws -> [(String, String)] {
    var errors: [(String, String)] = []
    let commands: [(FixtureDatabase, TemporaryDirectory) -> [String]] = [
      { ["export", "--db", $0.path, "--session", "all", "--out", $1.path("out.ndjson")] },
      { fixture, directory in ["merge", directory.path("merged.sqlite"), fixture.path] },
      { fixture, _ in ["summarize", "--db", fixture.path] },
      { fixture, _ in ["prune", "--db", fixture.path, "--keep-last", "0"] },
    ]
    for command in commands {
      let fixture = try FixtureDatabase.standard()
      let directory = TemporaryDirectory()
      let arguments = command(fixture, directory)
      let shown = console()
      let code = await SleeveCLI.run(arguments, console: shown)
      #expect(code == .success, "\(arguments): \(shown.capturedError)")
      errors.append((arguments[0], shown.capturedError))
    }
    return errors
  }

  @Test("on a terminal, export, merge, summarize and prune draw a line and clear it when done")
  func drawnAndCleared() async throws {
    let piped = try await Self.longCommands { Console.capturing() }
    let drawn = try await Self.longCommands { Console.capturing(errorIsTerminal: true) }
    let line = try Regex(#"^(\r[^\r\n]+)+\r( +)\r"#)
    for ((command, plain), (_, terminal)) in zip(piped, drawn) {
      #expect(!plain.contains("\r"), "\(command): \(plain.debugDescription)")
      let match = try #require(
        try line.prefixMatch(in: terminal), "\(command): \(terminal.debugDescription)")
      // What follows the cleared line is what a pipe gets (the paths of the fresh fixtures
      // aside, which only export prints).
      let rest = String(terminal[match.range.upperBound...])
      #expect(!rest.contains("\r"), "\(command): \(terminal.debugDescription)")
      #expect(
        rest.split(separator: "\n").count == plain.split(separator: "\n").count,
        "\(command): \(rest.debugDescription) vs \(plain.debugDescription)")
      // The clearing covers the widest drawing.
      let widest = terminal[match.range].split(separator: "\r").dropLast().map(\.count).max()
      #expect(match.output[2].substring?.count == widest, "\(command)")
    }
  }

  @Test("work done within the delay draws nothing, on a terminal too")
  func quickWorkIsQuiet() async throws {
    let errors = try await Self.longCommands {
      Console.capturing(errorIsTerminal: true, progressDelay: .seconds(60))
    }
    for (command, error) in errors {
      #expect(!error.contains("\r"), "\(command): \(error.debugDescription)")
    }
  }

  @Test(
    "on a terminal, export --out names the session and count as it goes",
    arguments: ["ndjson", "csv", "otlp-json"])
  func progressOnTerminal(format: String) async throws {
    let (result, _) = try await Self.export(format: format, errorIsTerminal: true)
    #expect(result.exit == 0, "\(result.error)")
    #expect(
      result.error.hasPrefix("\rExporting session 1 of 2: "), "\(result.error.debugDescription)")
    #expect(result.error.contains("\rExported 29 handler invocations"))
  }

  @Test("no progress when standard error is not a terminal, or when the data goes to stdout")
  func noProgressElsewhere() async throws {
    let (piped, _) = try await Self.export(format: "ndjson", errorIsTerminal: false)
    #expect(!piped.error.contains("\r"))
    #expect(piped.error.hasPrefix("Exported 29 handler invocations"), "\(piped.error)")
    let (toOutput, _) = try await Self.export(format: "ndjson", errorIsTerminal: true, out: false)
    #expect(toOutput.error.isEmpty, "\(toOutput.error.debugDescription)")
  }

  @Test("a progress line redraws in place, clearing what a longer line left, then clears itself")
  func redrawClears() {
    let console = Console.capturing(errorIsTerminal: true)
    let progress = ProgressLine(console: console, interval: .zero)
    progress.update("a long first line")
    progress.update("short")
    progress.finish()
    progress.finish()
    #expect(
      console.capturedError
        == "\ra long first line\rshort            \r                 \r")
  }

  @Test("a progress line appears only once its delay has passed, then at most every interval")
  func delayAndInterval() {
    let console = Console.capturing(errorIsTerminal: true)
    let start = ContinuousClock.now
    let progress = ProgressLine(
      console: console, interval: .milliseconds(100), delay: .seconds(1), start: start)
    progress.update("early", now: start + .milliseconds(999))
    #expect(console.capturedError.isEmpty)
    progress.finish()
    #expect(console.capturedError.isEmpty, "a line never drawn is not cleared")
    progress.update("first", now: start + .seconds(1))
    progress.update("too soon", now: start + .milliseconds(1_050))
    progress.update("last step", always: true, now: start + .milliseconds(1_060))
    #expect(console.capturedError == "\rfirst\rlast step")
  }

  @Test("a progress line is cut to the terminal's width less one cell, and escaped")
  func cutAndEscaped() {
    let console = Console.capturing(columns: 40, errorIsTerminal: true)
    let progress = ProgressLine(console: console, interval: .zero)
    progress.update("Merging 'a\u{1B}[2Jb' now")
    let long = String(repeating: "abcdefghij", count: 5)
    progress.show(long)
    #expect(console.capturedError == "\rMerging 'a\\e[2Jb' now\r" + long.prefix(39))
    #expect(!console.capturedError.contains("\u{1B}"))
  }
}
