import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve flags` on a terminal: the history lines under the table wrap to its width too.
@Suite("Flag history on a terminal")
struct FlagHistoryWidthTests {
  @Test(
    "history lines fit the terminal, and a pipe gets them whole", arguments: [40, 80, 120])
  func historyFits(columns: Int) async throws {
    let fixture = try FixtureDatabase.standard()
    let reason = String(repeating: "p99 over budget on the checkout screen ", count: 6)
    let rolledBack = await CLIRunner.run([
      "rollback", "new-pay", "--reason", reason, "--db", fixture.path,
    ])
    #expect(rolledBack.exit == 0, "\(rolledBack.error)")
    let console = Console.capturing(outputIsTerminal: true, columns: columns)
    let code = await SleeveCLI.run(
      ["flags", "--db", fixture.path, "--session", "all", "--color", "never"], console: console)
    #expect(code == .success)
    let screen = console.capturedOutput
    let history = try #require(screen.components(separatedBy: "\nHistory:\n").last)
    for line in history.split(separator: "\n") {
      #expect(CellWidth.of(String(line)) <= columns, "\(columns) columns: '\(line)'")
    }
    // Every word of the reason is still there.
    let joined = history.split(separator: "\n").map { $0.trimmingPrefix(" ") }.joined(
      separator: " ")
    #expect(joined.contains("checkout screen p99 over budget"))

    let piped = await CLIRunner.run(["flags", "--db", fixture.path, "--session", "all"])
    #expect(piped.out.contains(reason.trimmingCharacters(in: .whitespaces)))
  }
}
