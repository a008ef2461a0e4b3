import SleeveTestSupport
import Testing

@testable import SleeveCLI

@Suite("Output formats")
struct OutputTests {
  @Test(
    "JSON output keeps its keys and values stable (golden)",
    arguments: [
      ["errors", "--session", "all", "--by", "handler"],
      ["latency", "--session", "all", "--by", "handler", "--percentiles", "15,20,50,99"],
      ["flags", "--session", "all"],
      ["check", "--session", "all"],
      ["report", "--session", "all"],
    ])
  func jsonIsStable(arguments: [String]) async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(arguments + ["--db", fixture.path, "--format", "json"])
    let name = "json-\(arguments[0]).json"
    CLIRunner.updateGoldenIfAsked(name, with: result.out)
    #expect(result.out == CLIRunner.golden(name))
    #expect(result.error.isEmpty)
  }

  @Test("the four formats render the same rows")
  func formatsRenderTheSameRows() async throws {
    let fixture = try FixtureDatabase.standard()
    let base = ["errors", "--db", fixture.path, "--session", "all"]
    let table = await CLIRunner.run(base).out
    let csv = await CLIRunner.run(base + ["--format", "csv"]).out
    let markdown = await CLIRunner.run(base + ["--format", "markdown"]).out
    #expect(
      table.contains("\ncharge    15  13       2      13.33%  [3.74%, 37.88%]              0"))
    #expect(
      csv.split(separator: "\n").first
        == "handler,n,ok,failed,error rate,95% interval,ownerReleased,skipped,cancelled,recursionLimit"
    )
    #expect(csv.contains("\ncharge,15,13,2,0.13333333333333333,"))
    // People's formats fold the statuses 0 in every row into a note; CSV keeps them.
    #expect(markdown.contains(#"| charge | 15 | 13 | 2 | 13.33% | \[3.74%, 37.88%\] | 0 | 0 |"#))
    #expect(markdown.hasSuffix("\n\ncancelled, recursionLimit: 0 in every row.\n"), "\(markdown)")
    #expect(!table.contains("\u{1B}["))
  }

  @Test("CSV quotes fields with commas, quotes and newlines")
  func csvQuotes() {
    var table = Table(columns: ["a", "b"])
    table.rows.append([Table.Cell("x,y"), Table.Cell("say \"hi\"\nthere")])
    #expect(table.csv == "a,b\n\"x,y\",\"say \"\"hi\"\"\nthere\"\n")
  }

  @Test("colour only on a terminal with NO_COLOR unset or empty")
  func colourRules() {
    #expect(Console.capturing(outputIsTerminal: true).usesColor)
    #expect(Console.capturing(environment: ["NO_COLOR": ""], outputIsTerminal: true).usesColor)
    #expect(!Console.capturing(environment: ["NO_COLOR": "1"], outputIsTerminal: true).usesColor)
    #expect(!Console.capturing().usesColor)
  }

  @Test("durations, rates and percentile labels read well")
  func formatting() {
    #expect(Formatting.duration(850) == "850 ns")
    #expect(Formatting.duration(12_400) == "12.4 µs")
    #expect(Formatting.duration(3_210_000) == "3.21 ms")
    #expect(Formatting.duration(1_500_000_000) == "1.50 s")
    #expect(Formatting.duration(nil) == "-")
    #expect(Formatting.percent(0.1333) == "13.33%")
    #expect(Formatting.percentileLabel(99.9) == "p99.9")
    #expect(Formatting.percentileLabel(50) == "p50")
  }
}

@Suite("Argument parser")
struct ArgumentParserTests {
  static let specs = SleeveCLI.commands.map { $0.spec }

  @Test("--name=value, --name value, -h anywhere, and shared options before the command")
  func forms() throws {
    let inline = try ArgumentParser.parse(
      ["errors", "--by=flag", "--db", "a.sqlite"], commands: Self.specs)
    guard case .run("errors", let parsed) = inline else {
      Issue.record("expected a run request, got \(inline)")
      return
    }
    #expect(parsed.text(of: SharedOptions.byOption) == "flag")
    #expect(parsed.text(of: SharedOptions.db) == "a.sqlite")
    let leading = try ArgumentParser.parse(["--db", "b.sqlite", "latency"], commands: Self.specs)
    guard case .run("latency", let parsedLeading) = leading else {
      Issue.record("expected a run request, got \(leading)")
      return
    }
    #expect(parsedLeading.text(of: SharedOptions.db) == "b.sqlite")
    #expect(
      try ArgumentParser.parse(["check", "--max-p99", "5ms", "-h"], commands: Self.specs)
        == .help(command: "check"))
    #expect(try ArgumentParser.parse(["--version"], commands: Self.specs) == .version)
  }

  @Test("values may start with a single dash; the last repeated option wins")
  func valuesAndRepeats() throws {
    let request = try ArgumentParser.parse(
      ["check", "--min-samples", "-1", "--min-samples", "7"], commands: Self.specs)
    guard case .run(_, let parsed) = request else {
      Issue.record("expected a run request")
      return
    }
    #expect(parsed.text(of: BaselineSelection.minSamples) == "7")
  }

  @Test("random command lines never crash the parser and always end in a request or a usage error")
  func fuzzedCommandLines() {
    let seed: UInt64 = 0x5EED_C11
    var generator = SeededGenerator(seed: seed)
    let pieces = [
      "errors", "latency", "--db", "--by", "flag", "--format", "json", "-h", "--", "=", "--x=1",
      "-", "--percentiles", "101", "help", "check", "--max-p99", "", "é", "--db=", "-z",
    ]
    for _ in 0..<2_000 {
      let count = Int.random(in: 0...6, using: &generator)
      let line = (0..<count).map { _ in pieces.randomElement(using: &generator)! }
      do {
        _ = try ArgumentParser.parse(line, commands: Self.specs)
      } catch let error as UsageError {
        #expect(!error.message.isEmpty, "seed \(seed): \(line)")
      } catch {
        Issue.record("seed \(seed): unexpected error \(error) for \(line)")
      }
    }
  }
}

@Suite("Report formats")
struct ReportGoldenTests {
  @Test("the Markdown rollout report of the fixture database is stable (golden)")
  func markdownReportIsStable() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(["report", "--db", fixture.path, "--session", "all"])
    CLIRunner.updateGoldenIfAsked("report.md", with: result.out)
    #expect(result.exit == 0)
    #expect(result.out == CLIRunner.golden("report.md"))
    #expect(result.out.contains("### new-pay: rollback"))
  }

  @Test("report --out writes the file and says so on standard error; a bad path is an I/O error")
  func reportOut() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let out = directory.path("report.json")
    let result = await CLIRunner.run([
      "report", "--db", fixture.path, "--format", "json", "--out", out,
    ])
    #expect(result.exit == 0)
    #expect(result.out.isEmpty)
    #expect(result.error == "Wrote the json report to \(out).\n")
    let bad = await CLIRunner.run(
      ["report", "--db", fixture.path, "--out", "/nonexistent/dir/report.md"])
    #expect(bad.exit == 74)
    #expect(bad.error.hasPrefix("Error: cannot write '/nonexistent/dir/report.md'"))
  }

  @Test("report refuses formats it does not make")
  func reportFormats() async {
    let result = await CLIRunner.run(["report", "--format", "csv"])
    #expect(result.exit == 64)
    #expect(
      result.error.hasPrefix(
        "Error: The value 'csv' is invalid for '--format <format>': expected one of markdown, json, html"
      ))
  }
}
