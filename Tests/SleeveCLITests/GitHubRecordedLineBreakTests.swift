import Testing

@testable import SleeveCLI

/// A line break recorded in an error type or message never reaches a reviewer as a broken
/// annotation: inside its annotation line it shows as the visible `\n` (every control escaped
/// on Unicode scalars), and only the annotation's own structure (message, blank line, evidence)
/// breaks lines.
@Suite("Recorded line breaks in GitHub annotations")
struct GitHubRecordedLineBreakTests {
  @Test(
    "a recorded LF, CRLF, CR or U+2028 shows escaped inside its line; the annotation keeps its lines",
    arguments: [
      "PaymentError\ndeclined", "TypeError: nil\r\n  at line 2", "a\rb", "x\u{2028}y",
      "\n::error::forged",
    ])
  func recordedLineBreakStaysInItsLine(text: String) throws {
    let output = GitHubWorkflowCommands.annotations(CIReportFixtures.report(holding: text))
    let commands = RunnerReading.lines(output).compactMap(RunnerReading.command)
    #expect(commands.map(\.name) == ["error", "warning", "notice"])
    let shown = TerminalText.escaped(text)
    #expect(!shown.unicodeScalars.contains { $0 == "\n" || $0 == "\r" })
    let failed = try #require(commands.first)
    let lines = failed.data.split(separator: "\n", omittingEmptySubsequences: false).map(
      String.init)
    #expect(lines == ["message " + shown, "", "evidence", shown, "end"], "\(failed.data)")
    #expect(commands.last?.data == "summary " + shown)
  }
}
