import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `export --out` shows its progress on standard error when that is a terminal, and only then.
@Suite("Export progress")
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

  @Test(
    "on a terminal, export --out draws a progress line and ends it with the final count",
    arguments: ["ndjson", "csv", "otlp-json"])
  func progressOnTerminal(format: String) async throws {
    let (result, _) = try await Self.export(format: format, errorIsTerminal: true)
    #expect(result.exit == 0, "\(result.error)")
    #expect(
      result.error.hasPrefix("\rExporting session 1 of 2: "), "\(result.error.debugDescription)")
    #expect(result.error.contains("\rExported session 2 of 2: 29 handler invocations"))
    #expect(result.error.contains("invocations\n"))
  }

  @Test("no progress when standard error is not a terminal, or when the data goes to stdout")
  func noProgressElsewhere() async throws {
    let (piped, _) = try await Self.export(format: "ndjson", errorIsTerminal: false)
    #expect(!piped.error.contains("\r"))
    #expect(piped.error.hasPrefix("Exported 29 handler invocations"), "\(piped.error)")
    let (toOutput, _) = try await Self.export(format: "ndjson", errorIsTerminal: true, out: false)
    #expect(toOutput.error.isEmpty, "\(toOutput.error.debugDescription)")
  }

  @Test("a progress line redraws in place, clearing what a longer line left")
  func redrawClears() {
    let console = Console.capturing(errorIsTerminal: true)
    let progress = ProgressLine(console: console, interval: .zero)
    progress.update("a long first line")
    progress.update("short")
    progress.finish("done")
    #expect(console.capturedError == "\ra long first line\rshort            \rdone             \n")
  }
}
