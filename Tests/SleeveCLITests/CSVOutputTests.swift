import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// One CSV writer for every command: quoting on bytes, formulas neutralized in the commands'
/// CSV, the export's CSV exact.
@Suite("CSV output")
struct CSVOutputTests {
  static let commands: [[String]] = [
    ["sessions"], ["errors", "--by", "handler"], ["errors", "--by", "control"],
    ["errors", "--by", "flag"], ["latency", "--by", "handler"], ["flags"], ["check"],
  ]

  @Test(
    "every command's CSV keeps CR LF, quotes and tabs inside one field of one record",
    arguments: commands)
  func commandsQuoteLineBreaks(command: [String]) async throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "run\r\none")
    try fixture.handler(
      session: 1, number: 1, name: "pay\r\n\"now\"", control: "c\r\nd", flag: "k\r\n\tx")
    try fixture.outcomes(session: 1, handler: 1, durations: [5, 6], variant: 1)
    try fixture.outcomes(session: 1, handler: 1, durations: [4], variant: 0)
    try fixture.flag(
      session: 1, key: "k\r\n\tx", owner: "o", maxErrorRate: 0.5, maxP99: nil, minSamples: 1,
      states: [("enabled", nil)])
    let result = await CLIRunner.run(
      command + ["--db", fixture.path, "--session", "all", "--format", "csv"])
    #expect([0, 1, 2].contains(result.exit), "\(result.error)")
    let records = try EscaperTests.csvParsed(result.out)
    let width = try #require(records.first).count
    #expect(records.count >= 2, "\(result.out.debugDescription)")
    #expect(records.allSatisfy { $0.count == width }, "a line break split a record")
    let names = ["run\r\none", "pay\r\n\"now\"", "c\r\nd", "k\r\n\tx"]
    let fields = records.dropFirst().flatMap { $0 }
    #expect(fields.contains { field in names.contains { field.contains($0) } }, "\(records)")
  }

  @Test(
    "a field a spreadsheet would run gets a ' in front; a number never does",
    arguments: [
      ("=HYPERLINK(\"http://evil.example\",\"x\")", "'=HYPERLINK(\"http://evil.example\",\"x\")"),
      ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"), ("-[Pay tap:]", "'-[Pay tap:]"),
      ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"), ("\rx", "'\rx"), ("'quoted", "''quoted"),
      ("-5", "-5"), ("-1.5e-7", "-1.5e-7"), ("+3", "+3"), ("0.25", "0.25"), ("plain", "plain"),
      ("a=b", "a=b"), ("", ""),
    ])
  func formulasAreNeutralized(value: String, expected: String) throws {
    let record = CSVText.record([value], formulas: .neutralized)
    #expect(try EscaperTests.csvParsed(record) == [[expected]])
    let dropped = expected.hasPrefix("'") ? String(expected.dropFirst()) : expected
    #expect(dropped == value, "the rule is not reversible for \(value.debugDescription)")
  }

  @Test("the commands' CSV neutralizes a recorded formula and keeps negative numbers numbers")
  func commandsNeutralizeFormulas() async throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "run")
    try fixture.handler(
      session: 1, number: 1, name: "=HYPERLINK(\"http://evil.example\")", control: "c")
    try fixture.outcomes(session: 1, handler: 1, durations: [-5, -7])
    let latency = await CLIRunner.run(["latency", "--db", fixture.path, "--format", "csv"])
    let records = try EscaperTests.csvParsed(latency.out)
    let header = try #require(records.first)
    let row = try #require(records.last)
    let field = { (name: String) in header.firstIndex(of: name).map { row[$0] } }
    #expect(field("handler") == "'=HYPERLINK(\"http://evil.example\")")
    #expect(field("min") == "-7")
    #expect(field("max") == "-5")
    #expect(field("mean") == "-6")
    #expect(
      !latency.out.split(separator: "\n").contains { $0.hasPrefix("=") || $0.hasPrefix("\"=") })
  }

  @Test("export's CSV is the data format: a recorded formula is written exactly (output page)")
  func exportKeepsValuesExact() async throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "=1+2")
    try fixture.handler(session: 1, number: 1, name: "-[Pay tap:]", control: "@c")
    try fixture.outcomes(session: 1, handler: 1, durations: [-5])
    let export = await CLIRunner.run(["export", "--db", fixture.path, "--format", "csv"])
    let records = try EscaperTests.csvParsed(export.out)
    let header = try #require(records.first)
    let row = try #require(records.last)
    let field = { (name: String) in header.firstIndex(of: name).map { row[$0] } }
    #expect(field("session_name") == "=1+2")
    #expect(field("handler") == "-[Pay tap:]")
    #expect(field("control") == "@c")
    #expect(field("duration_ns") == "-5")
  }

  @Test("sessions' CSV holds the whole commit id; the table shows its first 12 characters")
  func sessionsCSVKeepsTheWholeCommit() async throws {
    let fixture = try FixtureDatabase()
    let commit = "4f2a9c1d0e5b7a8c9d0e1f2a3b4c5d6e7f8091a2"
    try fixture.session(1, name: "run")
    try fixture.context(session: 1, commit: commit, branch: "main")
    let csv = await CLIRunner.run(["sessions", "--db", fixture.path, "--format", "csv"])
    #expect(csv.exit == 0, "\(csv.error)")
    #expect(csv.out.contains("," + commit), "\(csv.out)")
    let table = await CLIRunner.run(["sessions", "--db", fixture.path])
    #expect(table.out.contains("4f2a9c1d0e5b"), "\(table.out)")
    #expect(!table.out.contains(commit))
  }
}
