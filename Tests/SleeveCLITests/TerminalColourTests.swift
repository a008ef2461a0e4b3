import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Verdicts stand out on a colour terminal, and nowhere else.
@Suite("Colour on a terminal")
struct TerminalColourTests {
  static let red = "\u{1B}[31m"
  static let green = "\u{1B}[32m"

  @Test("on a terminal, breach and rollback are red, pass green, the decision line bold")
  func verdictsAreColoured() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await TerminalRunner.run(
      // --all-rows: a terminal folds passed checks into a note, and the green is on their rows.
      ["check", "--session", "all", "--db", fixture.path, "--all-rows"], columns: 200)
    #expect(result.exit == 1)
    #expect(result.out.contains(Self.red + "breach\u{1B}[0m"), "\(result.out.debugDescription)")
    #expect(result.out.contains(Self.green + "pass\u{1B}[0m"))
    let decision = result.out.split(separator: "\n")[0]
    #expect(decision.hasPrefix("\u{1B}[1m"))
    #expect(decision.contains("Decision: " + Self.red + "rollback\u{1B}[39m"))
    #expect(decision.hasSuffix("\u{1B}[0m"))
  }

  @Test("hold is yellow and insufficient dimmed")
  func holdAndInsufficient() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await TerminalRunner.run(
      ["check", "--session", "all", "--db", fixture.path, "--min-samples", "1000", "--expanded"],
      columns: 80)
    #expect(result.exit == 2, "\(result.out)")
    #expect(result.out.contains("Decision: \u{1B}[33mhold\u{1B}[39m"), "\(result.out)")
    #expect(result.out.contains("\u{1B}[2minsufficient\u{1B}[0m"))
  }

  @Test("an insufficient percentile (*) is dimmed in latency")
  func insufficientPercentileIsDimmed() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await TerminalRunner.run(["latency", "--db", fixture.path], columns: 200)
    #expect(result.out.contains("\u{1B}[2m"), "\(result.out.debugDescription)")
    let dimmed = result.out.components(separatedBy: "\u{1B}[2m").dropFirst()
    #expect(dimmed.allSatisfy { $0.prefix { $0 != "\u{1B}" }.hasSuffix("*") })
  }

  @Test(
    "no colour with NO_COLOR set, TERM=dumb, --color never, in a pipe, or in json, csv or markdown",
    arguments: [
      ([String](), ["NO_COLOR": "1"], 200),
      ([String](), ["TERM": "dumb"], 200),
      (["--color", "never"], [:], 200),
      ([], [:], nil),
      (["--format", "json", "--color", "always"], [:], 200),
      (["--format", "csv", "--color", "always"], [:], 200),
      (["--format", "markdown", "--color", "always"], [:], 200),
    ] as [([String], [String: String], Int?)])
  func noColourWhereNotWanted(options: [String], environment: [String: String], columns: Int?)
    async throws
  {
    let fixture = try FixtureDatabase.standard()
    let result = await TerminalRunner.run(
      ["check", "--session", "all", "--db", fixture.path] + options, columns: columns,
      environment: environment)
    #expect(result.exit == 1)
    #expect(!result.out.contains("\u{1B}"), "\(result.out.debugDescription)")
  }

  @Test("an empty NO_COLOR leaves colour on; --color always colours a pipe (for less -R)")
  func emptyNoColourAndAlways() async throws {
    let fixture = try FixtureDatabase.standard()
    let empty = await TerminalRunner.run(
      ["check", "--session", "all", "--db", fixture.path], columns: 200,
      environment: ["NO_COLOR": ""])
    #expect(empty.out.contains(Self.red))
    let always = await TerminalRunner.run(
      ["check", "--session", "all", "--db", fixture.path, "--color", "always"], columns: nil,
      environment: ["NO_COLOR": "1"])
    #expect(always.out.contains(Self.red))
    #expect(!always.out.contains("-[ RECORD"))
  }

  @Test("colour does not count toward widths: columns line up as without it")
  func colourKeepsAlignment() async throws {
    let fixture = try FixtureDatabase.standard()
    let coloured = await TerminalRunner.run(
      ["check", "--session", "all", "--db", fixture.path], columns: 200)
    let plain = await TerminalRunner.run(
      ["check", "--session", "all", "--db", fixture.path, "--color", "never"], columns: 200)
    #expect(TerminalRunner.withoutColour(coloured.out) == plain.out)
  }
}
