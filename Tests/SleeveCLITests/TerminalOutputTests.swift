import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Tables and error lines show recorded names with controls visibly escaped, one row per
/// record, whatever the file holds.
@Suite("Terminal output")
struct TerminalOutputTests {
  static let tableCommands: [[String]] = [
    ["sessions"], ["errors", "--by", "handler"], ["errors", "--by", "control"],
    ["errors", "--by", "flag"], ["latency", "--by", "handler"], ["latency", "--by", "session"],
    ["flags"], ["check"],
  ]

  /// Whether `text` holds a scalar that acts on a terminal, other than the LF ending lines.
  static func holdsControls(_ text: String) -> Bool {
    text.unicodeScalars.contains { HostileNames.forbidden.contains($0) }
  }

  @Test("tables show hostile names escaped, one line per row", arguments: tableCommands)
  func tablesEscapeNames(command: [String]) async throws {
    let fixture = try HostileNames.database()
    let result = await CLIRunner.run(command + ["--db", fixture.path, "--session", "all"])
    #expect([0, 1, 2].contains(result.exit), "\(result.error)")
    #expect(!Self.holdsControls(result.out), "\(result.out.debugDescription)")
    let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(!lines.contains { $0.hasPrefix("forged") }, "a name's line break forged a row")
    let shown = [
      #"s\e]0;PWNED\a\e[2J"#, #"h\nforged  99  99"#, #"c\r\u{202E}x"#, #"f\u{9B}31m\tk<img"#,
    ]
    #expect(shown.contains { result.out.contains($0) }, "\(result.out)")
  }

  @Test("the flag history and the check's rollback note are escaped too")
  func historyAndRollbackNoteAreEscaped() async throws {
    let fixture = try HostileNames.database()
    let flags = await CLIRunner.run(["flags", "--db", fixture.path])
    #expect(flags.out.contains(#"(r\r\nforged)"#))
    #expect(!Self.holdsControls(flags.out))
    let check = await CLIRunner.run([
      "check", "--db", fixture.path, "--apply",
    ])
    #expect(check.exit == 1, "\(check.error)")
    #expect(check.error.contains(#"Rolled back 'f\u{9B}31m\tk"#), "\(check.error)")
    #expect(!Self.holdsControls(check.error))
  }

  @Test("column widths count the escaped text: every column starts where its header does")
  func widthsCountEscapedText() {
    var table = Table(columns: ["name", "n"], numeric: [1])
    table.rows.append([Table.Cell("a\u{1B}[2J\u{07}"), Table.Cell("1")])
    table.rows.append([Table.Cell("plain"), Table.Cell("22")])
    let lines = table.aligned().split(separator: "\n").map(String.init)
    #expect(lines == ["name       n", #"a\e[2J\a   1"#, "plain     22"])
  }

  @Test("merge's report escapes an input path holding a line break and an escape")
  func mergeReportEscapesPaths() async throws {
    let source = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let input = directory.path("run\n\u{1B}[2Jforged.sqlite")
    try source.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")  // the copy is complete
    try FileManager.default.copyItem(atPath: source.path, toPath: input)
    let result = await CLIRunner.run(["merge", directory.path("out.sqlite"), input])
    #expect(result.exit == 0, "\(result.error)")
    #expect(result.out.contains(#"run\n\e[2Jforged.sqlite"#), "\(result.out)")
    #expect(!Self.holdsControls(result.out))
    #expect(result.out.split(separator: "\n").count == 2)
  }

  @Test("an error naming a hostile path or argument stays one escaped line")
  func errorLinesAreEscaped() async {
    let path = "/nonexistent/x\ny\u{1B}[2J\u{202E}.sqlite"
    let missing = await CLIRunner.run(["sessions", "--db", path])
    #expect(missing.exit == 66)
    #expect(missing.error.hasPrefix("Error: "))
    #expect(missing.error.split(separator: "\n", omittingEmptySubsequences: false).count == 2)
    #expect(missing.error.contains(#"x\ny\e[2J\u{202E}.sqlite"#), "\(missing.error)")
    #expect(!Self.holdsControls(missing.error))
    let usage = await CLIRunner.run(["errors", "--by", "x\r\n\u{1B}]0;PWNED\u{07}"])
    #expect(usage.exit == 64)
    let first = usage.error.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix("Error: ") && first.contains(#"x\r\n\e]0;PWNED\a"#), "\(usage.error)")
    #expect(usage.error.split(separator: "\n").count == 3)
    #expect(!Self.holdsControls(usage.error))
  }
}

@Suite("Terminal notes")
struct TerminalNoteTests {
  @Test("export's closing note and a flag change's confirmation escape names and arguments")
  func notesAreEscaped() async throws {
    let fixture = try HostileNames.database()
    let directory = TemporaryDirectory()
    let export = await CLIRunner.run([
      "export", "--db", fixture.path, "--out", directory.path("out.ndjson"),
    ])
    #expect(export.exit == 0, "\(export.error)")
    #expect(export.error.contains(#"'s\e]0;PWNED\a\e[2J'"#), "\(export.error)")
    #expect(export.error.split(separator: "\n").count == 1)
    let rollback = await CLIRunner.run([
      "rollback", "k", "--db", fixture.path, "--create", "--reason", "r\u{07}", "--actor",
      "a\u{1B}[2J\u{202E}",
    ])
    #expect(rollback.exit == 0, "\(rollback.error)")
    let confirmation = #"Flag 'k' is now rolledBack (r\a), by a\e[2J\u{202E}."#
    #expect(rollback.out.contains(confirmation), "\(rollback.out)")
    #expect(rollback.out.split(separator: "\n").count == 1)
    // A key that breaks the rule is refused, and the refusal is one escaped line.
    let refused = await CLIRunner.run([
      "rollback", "k\u{1B}[2J\n", "--db", fixture.path, "--create", "--reason", "r",
    ])
    #expect(refused.exit == 64)
    #expect(refused.error.hasPrefix(#"Error: The value 'k\e[2J\n' is not a flag key"#))
  }
}
