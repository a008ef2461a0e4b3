import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Output that stays short: in the record layout a method repeated across records is printed
/// once as a numbered note; the plan's sentence only above percentiles; every histogram
/// percentile with its bound; and `sleeve errors --by handler` on the recorded demos within 40
/// lines of an 80-column terminal.
@Suite("Short output")
struct ShortOutputTests {
  static let method =
    "Cochran-Mantel-Haenszel across strata, one-sided, no continuity correction; van Elteren "
    + "stratified Wilcoxon-Mann-Whitney, one-sided"

  @Test(
    "the record layout prints a repeated method once, as a numbered note; a unique one in place")
  func recordsNoteRepeatedMethods() {
    var table = Table(columns: ["handler", "why", "method"], freeText: [1, 2])
    table.rows = [
      ["pay", "slower, significant after Holm's adjustment", Table.Cell(Self.method)],
      ["cancel", "no baseline session ran it", Table.Cell(Self.method)],
      ["close", "no baseline session ran it", "by rank"],
    ]
    let display = TerminalDisplay(width: 40, layout: .expanded, colored: false)
    let out = TableLayout.render(table, header: [], display: display)
    let lines = out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(lines.filter { $0.hasPrefix("method   [1]") }.count == 2, "\(out)")
    #expect(lines.contains("method   by rank"), "\(out)")
    #expect(lines.filter { $0 == "why      no baseline session ran it" }.count == 2, "\(out)")
    #expect(lines.contains { $0.hasPrefix("[1] Cochran-Mantel-Haenszel") }, "\(out)")
    #expect(out.components(separatedBy: "Cochran").count == 2, "printed once\n\(out)")
    #expect(TerminalRunner.widestLine(out) <= 40, "\(out)")
  }

  @Test("errors and sessions say nothing of percentiles; latency and flags say how they were read")
  func planSentenceOnlyAbovePercentiles() async throws {
    let fixture = try FixtureDatabase.standard()
    for (command, shown) in [
      ("errors", false), ("sessions", false), ("latency", true), ("flags", true),
    ] {
      let result = await CLIRunner.run([command, "--db", fixture.path, "--session", "all"])
      #expect(result.exit == 0, "\(result.error)")
      #expect(result.out.contains("Answered from") == shown, "\(command)\n\(result.out)")
    }
  }

  /// The cells of a full table's columns titled `titles`, split at two or more spaces.
  static func cells(_ out: String, titled wanted: [String]) -> [String] {
    let lines = out.split(separator: "\n").map(String.init)
    guard let headerIndex = lines.firstIndex(where: { $0.contains(wanted[0]) }) else { return [] }
    func cells(_ line: String) -> [String] {
      line.split(separator: "  ").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { !$0.isEmpty }
    }
    let titles = cells(lines[headerIndex])
    let columns = titles.indices.filter { wanted.contains(titles[$0]) }
    var found: [String] = []
    for line in lines.dropFirst(headerIndex + 1) {
      let row = cells(line)
      guard row.count == titles.count else { break }
      found += columns.map { row[$0] }
    }
    return found
  }

  @Test("from summaries, every percentile flags and diff print shows the bound the same way")
  func everyHistogramPercentileShowsItsBound() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    let cohorts = ["on", "off"].flatMap { side in ["p50", "p95", "p99"].map { side + " " + $0 } }
    for (arguments, titles) in [
      (["flags", "--session", "all"], cohorts),
      (
        ["diff", "--baseline", "branch=main,last=20"],
        ["p50 base", "p50 cand", "p99 base", "p99 cand"]
      ),
      (["latency", "--session", "all"], ["p50", "p95", "p99"]),
    ] {
      let result = await CLIRunner.run(arguments + ["--db", path, "--wide"])
      #expect(result.exit == 0, "\(result.error)")
      #expect(result.out.contains("Answered from summaries"), "\(result.out)")
      let cells = Self.cells(result.out, titled: titles)
      #expect(cells.count >= titles.count, "\(arguments)\n\(result.out)")
      // A value (not `-`, or `-*` when too few samples for one) shows its bound.
      for cell in cells where !cell.hasPrefix("-") {
        #expect(
          cell.hasSuffix(" ±1.083%") || cell.hasSuffix(" ±1.083%*"),
          "\(arguments): \(cell)\n\(result.out)")
      }
    }
  }

  @Test("errors --by handler on the recorded demos takes at most 40 lines of an 80-column terminal")
  func errorsFitEightyColumns() async throws {
    let demo = await RecordedDemo.shared.recorded()
    #expect(demo.exit == 0)
    let (history, _) = await RecordedHistory.shared.recorded()
    for path in [demo.path, history] {
      let result = try await PseudoTerminal.run(
        ChildProcess.sleeveBinary, ["errors", "--by", "handler", "--db", path], columns: 80)
      #expect(result.status == 0, "\(result.error)")
      let lines = result.screen.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      #expect(lines <= 40, "\(lines) lines\n\(result.screen)")
      #expect(TerminalRunner.widestLine(result.screen) <= 80, "\(result.screen)")
      #expect(!result.screen.contains("-[ RECORD"), "\(result.screen)")
      #expect(result.screen.contains(": 0 in every row.") || result.screen.contains(" in "))
    }
  }

  @Test("diff and check --baseline at 80 columns print each method text once")
  func comparisonMethodsOnceAtEightyColumns() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    for command in ["diff", "check"] {
      let result = try await PseudoTerminal.run(
        ChildProcess.sleeveBinary,
        [command, "--baseline", "branch=main,last=20", "--db", path, "--color", "never"],
        columns: 80)
      #expect([0, 1, 2].contains(result.status), "\(result.error)")
      #expect(TerminalRunner.widestLine(result.screen) <= 80, "\(result.screen)")
      // A record's method is a reference to its numbered note, or a text no other record has.
      let methods = result.screen.split(separator: "\n").filter { $0.hasPrefix("method ") }
        .map { $0.dropFirst("method".count).trimmingCharacters(in: .whitespaces) }
      let texts = methods.filter { !($0.hasPrefix("[") && $0.hasSuffix("]")) }
      #expect(methods.count > texts.count, "\(command): no method noted\n\(result.screen)")
      #expect(Set(texts).count == texts.count, "\(command): a method repeated\n\(result.screen)")
    }
  }
}
