import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Every command as a person sees it: the built `sleeve` binary on a pseudo-terminal 80 and 120
/// columns wide, compared with golden screens (colour included).
@Suite("Terminal golden screens")
struct TerminalGoldenTests {
  static let commands: [(name: String, arguments: [String])] = [
    ("sessions", ["sessions"]), ("errors", ["errors", "--session", "all"]),
    ("latency", ["latency", "--session", "all"]), ("flags", ["flags", "--session", "all"]),
    ("check", ["check", "--session", "all"]),
    ("check-hold", ["check", "--session", "1", "--min-samples", "50"]),
    ("report", ["report", "--session", "all"]),
    ("merge", ["merge", "merged.sqlite", "fixture.sqlite"]),
  ]

  static let cases = commands.flatMap { command in [80, 120].map { (command, $0) } }

  @Test(
    "every command's screen at 80 and 120 columns matches its golden screen",
    arguments: cases.map { "\($0.0.name)@\($0.1)" })
  func screens(name: String) async throws {
    let (command, columns) = Self.cases.first { "\($0.0.name)@\($0.1)" == name }!
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let directory = URL(fileURLWithPath: fixture.path).deletingLastPathComponent().path
    let arguments =
      command.arguments + (command.name == "merge" ? [] : ["--db", "fixture.sqlite"])
    let result = try await PseudoTerminal.run(
      ChildProcess.sleeveBinary, arguments, columns: columns, directory: directory)
    #expect([0, 1, 2].contains(result.status), "\(result.error)")
    let golden = "terminal-\(command.name)-\(columns).txt"
    CLIRunner.updateGoldenIfAsked(golden, with: result.screen)
    #expect(result.screen == CLIRunner.golden(golden), "\(result.screen)")
    if command.name != "flags" && command.name != "report" {
      #expect(TerminalRunner.widestLine(result.screen) <= columns)
    }
  }

  @Test("on a pseudo-terminal the width comes from the terminal, not from COLUMNS")
  func widthComesFromTheTerminal() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = try await PseudoTerminal.run(
      ChildProcess.sleeveBinary, ["errors", "--session", "all", "--db", fixture.path],
      columns: 200, environment: ["PATH": "/usr/bin:/bin", "COLUMNS": "20", "NO_COLOR": "1"])
    #expect(result.screen.contains("handler    n  ok  failed"), "\(result.screen)")
    #expect(!result.screen.contains("\u{1B}"))
  }

  @Test("a pseudo-terminal 20 columns wide still shows every value, expanded")
  func twentyColumns() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = try await PseudoTerminal.run(
      ChildProcess.sleeveBinary, ["check", "--session", "all", "--db", fixture.path],
      columns: 20)
    #expect(result.status == 1)
    #expect(result.screen.contains("-[ RECORD 1 ]"))
    #expect(TerminalRunner.widestLine(result.screen) <= 20, "\(result.screen)")
  }
}
