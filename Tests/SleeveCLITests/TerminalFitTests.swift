import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Runs `sleeve` in-process with a console that pretends to be a terminal (or a pipe).
enum TerminalRunner {
  static func run(
    _ arguments: [String], columns: Int?, environment: [String: String] = [:]
  ) async -> CLIRunner.Result {
    let console = Console.capturing(
      environment: environment, outputIsTerminal: columns != nil, columns: columns)
    let code = await SleeveCLI.run(arguments, console: console)
    return CLIRunner.Result(
      exit: code.rawValue, out: console.capturedOutput, error: console.capturedError)
  }

  /// `text` without ANSI SGR sequences (`ESC [ … m`).
  static func withoutColour(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      guard scalar == "\u{1B}" else {
        out.append(scalar)
        continue
      }
      while let next = scalars.next(), next != "m" {}
    }
    return String(out)
  }

  /// The widest line of `text` in terminal cells, colour left out.
  static func widestLine(_ text: String) -> Int {
    withoutColour(text).split(separator: "\n", omittingEmptySubsequences: false)
      .map { CellWidth.of(String($0)) }.max() ?? 0
  }
}

@Suite("Tables that fit the terminal")
struct TerminalFitTests {
  static let tableCommands: [[String]] = [
    ["sessions"], ["errors"], ["errors", "--by", "flag"], ["latency"],
    ["latency", "--percentiles", "1,5,10,25,50,75,90,95,99,99.9,99.99"], ["flags"], ["check"],
  ]

  @Test("terminal widths are counted in cells: wide two, combining and format marks zero")
  func cellWidths() {
    // Unicode 14.0 EastAsianWidth.txt and general categories (Python 3.11 unicodedata).
    #expect(CellWidth.of("abc") == 3)
    #expect(CellWidth.of("漢字") == 4)  // U+6F22 U+5B57: W
    #expect(CellWidth.of("ｶ") == 1)  // U+FF76 halfwidth katakana: H
    #expect(CellWidth.of("Ａ") == 2)  // U+FF21 fullwidth A: F
    #expect(CellWidth.of("\u{1F642}") == 2)  // slightly smiling face: W
    #expect(CellWidth.of("e\u{301}") == 1)  // combining acute: Mn
    #expect(CellWidth.of("\u{20DD}") == 0)  // combining enclosing circle: Me
    #expect(CellWidth.of("a\u{200D}b") == 2)  // zero width joiner: Cf
    #expect(CellWidth.of("\u{AD}") == 1)  // soft hyphen: drawn, as glibc counts it
    #expect(CellWidth.of("\u{3000}") == 2)  // ideographic space: F
    #expect(CellWidth.of("\u{2FFFD}") == 2)  // unassigned in plane 2: W by default
    #expect(CellWidth.of("\u{1100}\u{1160}") == 3)  // Hangul choseong W, jungseong N (not 0)
  }

  @Test("the width tables are sorted, non-overlapping ranges")
  func tablesAreOrdered() {
    for table in [CellWidth.wide, CellWidth.zeroWidth] {
      #expect(table.count % 2 == 0)
      for index in stride(from: 0, to: table.count, by: 2) {
        #expect(table[index] <= table[index + 1])
        if index + 2 < table.count { #expect(table[index + 1] < table[index + 2]) }
      }
    }
  }

  @Test("pipes and files get the full table whatever COLUMNS says", arguments: tableCommands)
  func pipesIgnoreTheWidth(command: [String]) async throws {
    let fixture = try FixtureDatabase.standard()
    let arguments = command + ["--db", fixture.path, "--session", "all"]
    let plain = await TerminalRunner.run(arguments, columns: nil)
    let narrow = await TerminalRunner.run(arguments, columns: nil, environment: ["COLUMNS": "20"])
    let wide = await TerminalRunner.run(arguments + ["--wide"], columns: nil)
    #expect(narrow.out == plain.out)
    #expect(wide.out == plain.out)
    #expect(!plain.out.contains("\u{1B}"))
    #expect(!plain.out.contains("-[ RECORD"))
  }

  @Test(
    "json, csv and markdown are the same on a 20-column terminal as in a pipe",
    arguments: ["json", "csv", "markdown"])
  func machineFormatsIgnoreTheTerminal(format: String) async throws {
    let fixture = try FixtureDatabase.standard()
    for command in Self.tableCommands {
      let arguments = command + ["--db", fixture.path, "--format", format, "--session", "all"]
      let piped = await TerminalRunner.run(arguments, columns: nil)
      let shown = await TerminalRunner.run(arguments + ["--color", "always"], columns: 20)
      #expect(shown.out == piped.out, "\(command)")
      #expect(!shown.out.contains("\u{1B}"))
    }
  }

  @Test(
    "on a terminal no line is wider than it, at 20, 80 and 120 columns",
    arguments: tableCommands, [20, 80, 120])
  func linesFitTheTerminal(command: [String], columns: Int) async throws {
    let fixture = try HostileNames.database()
    let result = await TerminalRunner.run(
      command + ["--db", fixture.path, "--session", "all"], columns: columns)
    #expect([0, 1, 2].contains(result.exit), "\(result.error)")
    let tableOnly = result.out.components(separatedBy: "\nHistory:\n")[0]
    #expect(TerminalRunner.widestLine(tableOnly) <= columns, "\(result.out)")
  }

  @Test("check on a 120-column terminal moves each method to a numbered note")
  func methodsMoveToNotes() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await TerminalRunner.run(
      ["check", "--session", "all", "--db", fixture.path, "--color", "never"], columns: 120)
    let lines = result.out.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix("check") && $0.hasSuffix("method") })
    #expect(lines.contains { $0.hasSuffix("  [1]") })
    #expect(lines.contains { $0.hasPrefix("[1] failed / (ok + failed)") }, "\(result.out)")
    #expect(!result.out.contains("-[ RECORD"))
    #expect(TerminalRunner.widestLine(result.out) <= 120)
  }

  @Test("a 20-column terminal gets the expanded layout with every value of the full table")
  func narrowTerminalShowsEveryValue() async throws {
    let fixture = try FixtureDatabase.standard()
    for command in Self.tableCommands {
      let arguments = command + ["--db", fixture.path, "--session", "all", "--color", "never"]
      let full = await TerminalRunner.run(arguments + ["--format", "csv"], columns: nil)
      let narrow = await TerminalRunner.run(arguments, columns: 20)
      #expect(narrow.out.contains("-[ RECORD 1 ]"), "\(command)")
      let tableOnly = narrow.out.components(separatedBy: "\nHistory:\n")[0]
      #expect(TerminalRunner.widestLine(tableOnly) <= 20, "\(narrow.out)")
      let joined = tableOnly.replacingOccurrences(of: "\n  ", with: "")
      for word in ["alpha", "validate", "new-pay", "payments", "charge"]
      where full.out.contains(word) {
        #expect(joined.contains(word), "\(command): \(word)")
      }
    }
  }

  @Test("--expanded forces the expanded layout, into a pipe too; --wide the full table")
  func layoutOptions() async throws {
    let fixture = try FixtureDatabase.standard()
    let arguments = ["errors", "--session", "all", "--db", fixture.path]
    let piped = await TerminalRunner.run(arguments + ["--expanded"], columns: nil)
    #expect(piped.out.contains("-[ RECORD 2 ]---"))
    // The fixture's cancelled and recursionLimit are 0 in every row: folded into a note.
    #expect(piped.out.contains("\nhandler        validate\n"), "\(piped.out)")
    #expect(piped.out.hasSuffix("\ncancelled, recursionLimit: 0 in every row.\n"), "\(piped.out)")
    let wide = await TerminalRunner.run(arguments + ["--wide", "--color", "never"], columns: 40)
    let plain = await TerminalRunner.run(arguments, columns: nil)
    #expect(wide.out == plain.out)
    #expect(TerminalRunner.widestLine(wide.out) > 40)
  }

  @Test(
    "bad display options are usage errors (64) naming the valid choices",
    arguments: [
      (["--color", "other"], "expected one of auto, always, never"),
      (["--color=yes"], "expected one of auto, always, never"),
      (["--expanded", "--format", "json"], "needs --format table, not json (formats: table, json"),
      (["--wide", "--format", "csv"], "needs --format table, not csv"),
      (["--expanded", "--wide"], "cannot be used together"),
    ])
  func badDisplayOptions(options: [String], message: String) async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await TerminalRunner.run(["errors", "--db", fixture.path] + options, columns: 80)
    #expect(result.exit == 64)
    #expect(result.out.isEmpty)
    #expect(result.error.contains(message), "\(result.error)")
  }

  @Test("the display options are not global: before the subcommand they are refused")
  func displayOptionsAreNotGlobal() async throws {
    let result = await TerminalRunner.run(["--expanded", "errors"], columns: 80)
    #expect(result.exit == 64)
    #expect(result.error.contains("Unknown option '--expanded'"))
  }
}
