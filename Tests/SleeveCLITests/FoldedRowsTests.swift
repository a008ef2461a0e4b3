import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// On a terminal, the rows that need no attention (`diff`'s unchanged, new and gone rows,
/// `check`'s passed and advisory checks) fold into a note naming them, so both fit 120 lines
/// of an 80-column terminal on the recorded history; pipes, CSV and JSON keep every row.
@Suite("Folded rows")
struct FoldedRowsTests {
  /// A compared row as CSV gives it (every row, raw): its name, metric (check) and verdict.
  struct Row: Hashable {
    let name: String
    let metric: String
    let verdict: String
  }

  /// The command's arguments against the history's `main` baseline.
  static func arguments(_ command: String, _ path: String) -> [String] {
    [command, "--baseline", "branch=main,last=20", "--db", path, "--color", "never"]
  }

  /// The name's column in the table: `handler` for diff, `check` for check.
  static func field(_ command: String) -> String { command == "diff" ? "handler" : "check" }

  /// The verdicts that fold on a terminal, and their notes' nouns for `count` rows.
  static func noun(_ command: String, verdict: String, count: Int) -> String? {
    switch (command, verdict) {
    case ("diff", "unchanged"), ("diff", "new"), ("diff", "gone"): verdict
    case ("check", "pass"): count == 1 ? "check passed" : "checks passed"
    case ("check", "advisory"):
      count == 1 ? "advisory check (not counted)" : "advisory checks (not counted)"
    default: nil
    }
  }

  /// Every row of the command's table, from its CSV.
  static func rows(_ command: String, _ path: String) async throws -> [Row] {
    let result = try await CLIRunner.runChild(arguments(command, path) + ["--format", "csv"])
    let lines = try EscaperTests.csvParsed(result.out)
    let header = try #require(lines.first)
    let name = try #require(header.firstIndex(of: field(command)))
    let verdict = try #require(header.firstIndex(of: "verdict"))
    let metric = header.firstIndex(of: "metric")
    return lines.dropFirst().map { cells in
      Row(name: cells[name], metric: metric.map { cells[$0] } ?? "", verdict: cells[verdict])
    }
  }

  /// The screen's text with its lines joined by single spaces (notes wrap at spaces).
  static func joined(_ screen: String) -> String {
    screen.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  @Test(
    "diff and check --baseline at 80 columns take at most 120 lines and show each row that decides")
  func fitAndKeepWhatDecides() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    for (command, deciding) in [("diff", "regressed"), ("check", "breach")] {
      let rows = try await Self.rows(command, path)
      #expect(rows.contains { $0.verdict == deciding }, "\(command): nothing \(deciding)")
      let result = try await PseudoTerminal.run(
        ChildProcess.sleeveBinary, Self.arguments(command, path), columns: 80)
      let lines = result.screen.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      #expect(lines <= 120, "\(command): \(lines) lines\n\(result.screen)")
      #expect(TerminalRunner.widestLine(result.screen) <= 80, "\(result.screen)")
      // Each row that stays is a record; every one that decides stays.
      let named = result.screen.split(separator: "\n").filter {
        $0.hasPrefix(Self.field(command) + " ")
      }.map { $0.dropFirst(Self.field(command).count).trimmingCharacters(in: .whitespaces) }
      let kept = rows.filter { Self.noun(command, verdict: $0.verdict, count: 1) == nil }
      #expect(named.count == kept.count, "\(command)\n\(result.screen)")
      for row in rows where row.verdict == deciding {
        #expect(named.contains(row.name), "\(command): \(row.name) missing\n\(result.screen)")
      }
    }
  }

  @Test("the folded notes count and name every row they fold")
  func notesNameTheFoldedRows() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    for command in ["diff", "check"] {
      let rows = try await Self.rows(command, path)
      let result = try await PseudoTerminal.run(
        ChildProcess.sleeveBinary, Self.arguments(command, path), columns: 80)
      let text = Self.joined(result.screen)
      let verdicts = Set(rows.map(\.verdict)).filter {
        Self.noun(command, verdict: $0, count: 1) != nil
      }
      #expect(!verdicts.isEmpty, "\(command): nothing folds")
      for verdict in verdicts {
        let folded = rows.filter { $0.verdict == verdict }
        let noun = try #require(Self.noun(command, verdict: verdict, count: folded.count))
        let start = try #require(
          text.range(of: "\(folded.count) \(noun): "), "\(command): no note of \(verdict)\n\(text)")
        let rest = text[start.upperBound...]
        let note = String(rest[..<(rest.range(of: " shows ")?.lowerBound ?? rest.endIndex)])
        let names = Set(folded.map(\.name))
        try #require(names.count <= Table.RowFold.namesShown, "more names than a note lists")
        for name in names {
          #expect(
            [",", " (", " and"].contains { note.contains(name + $0) }, "\(name)\n\(text)")
          // A folded name is not a record of its own unless a row of it stays.
          let stays = rows.contains { $0.name == name && !verdicts.contains($0.verdict) }
          if !stays {
            #expect(
              !result.screen.split(separator: "\n").contains {
                $0.hasPrefix(Self.field(command) + " ") && $0.hasSuffix(" " + name)
              }, "\(command): \(name) is still a record")
          }
        }
      }
      let all = try await PseudoTerminal.run(
        ChildProcess.sleeveBinary, Self.arguments(command, path) + ["--all-rows"], columns: 80)
      #expect(
        all.screen.components(separatedBy: "-[ RECORD ").count - 1 == rows.count,
        "\(command) --all-rows\n\(all.screen)")
      #expect(!all.screen.contains("shows them)"), "\(all.screen)")
    }
  }

  @Test("piped and JSON output keep every row, unfolded")
  func pipesAndJSONKeepEveryRow() async throws {
    let (path, _) = await RecordedHistory.shared.recorded()
    for command in ["diff", "check"] {
      let rows = try await Self.rows(command, path)
      let piped = try await CLIRunner.runChild(Self.arguments(command, path))
      #expect(!piped.out.contains("shows them)") && !piped.out.contains("shows it)"))
      let lines = piped.out.split(separator: "\n", omittingEmptySubsequences: false)
      let title = try #require(
        lines.firstIndex { $0.hasPrefix(command == "diff" ? "verdict " : "check ") })
      let body = lines[(title + 1)...].prefix { !$0.isEmpty }
      #expect(body.count == rows.count, "\(command)\n\(piped.out)")
      for row in rows {
        #expect(
          body.contains {
            $0.contains(row.name) && (row.metric.isEmpty || $0.contains(row.metric))
          },
          "\(command): \(row.name) \(row.metric) not piped")
      }
      let json = try await CLIRunner.runChild(Self.arguments(command, path) + ["--format", "json"])
      let document = try JSONSerialization.jsonObject(with: Data(json.out.utf8))
      var found: [Row] = []
      func walk(_ value: Any) {
        if let object = value as? [String: Any] {
          if let verdict = object["verdict"] as? String {
            let name =
              (object["subject"] as? String) ?? (object["key"] as? String)
              ?? [object["control"] as? String, object["handler"] as? String].compactMap { $0 }
              .joined(separator: "/")
            found.append(
              Row(name: name, metric: object["metric"] as? String ?? "", verdict: verdict))
          }
          object.values.forEach(walk)
        } else if let array = value as? [Any] {
          array.forEach(walk)
        }
      }
      walk(document)
      #expect(Set(rows).isSubset(of: Set(found)), "\(command): JSON lacks rows\n\(json.out)")
    }
  }

  /// A one-column table whose rows starting `ok` fold.
  static func table(_ names: [String]) -> Table {
    Columns<String>([.text("name", json: "name") { $0 }])
      .foldingRows(name: { $0 }) { $0.hasPrefix("ok") ? Table.RowFold.Noun("ok") : nil }
      .table(names)
  }

  @Test("a note escapes its recorded names and lists at most eight before 'and K more'")
  func noteEscapesAndBounds() {
    let hostile = "ok\u{1B}]0;owned\u{07}\u{202E}"
    let names = ["broken", hostile] + (1...10).map { "ok\($0)" } + ["ok1"]
    let display = TerminalDisplay(width: 80, layout: .fit, colored: false, foldsRows: true)
    let out = TableLayout.body(Self.table(names), display: display)
    #expect(!out.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" })
    let text = Self.joined(out)
    #expect(text.contains("12 ok: " + TerminalText.escaped(hostile) + ", ok1, ok2"), "\(out)")
    #expect(text.contains("ok7 and 3 more (--all-rows shows them)."), "\(out)")
    #expect(out.hasPrefix("name\nbroken\n\n"), "\(out)")
    // Not on a terminal (a pipe), and in CSV and Markdown: every row.
    let piped = TableLayout.body(Self.table(names), display: .plain)
    #expect(piped.split(separator: "\n").count == names.count + 1, "\(piped)")
    #expect(Self.table(names).csv.split(separator: "\n").count == names.count + 1)
    #expect(Self.table(names).markdown.split(separator: "\n").count == names.count + 2)
  }

  @Test("when every row folds, only the note is printed")
  func everyRowFolded() {
    let display = TerminalDisplay(width: 80, layout: .expanded, colored: false, foldsRows: true)
    #expect(
      TableLayout.body(Self.table(["ok"]), display: display)
        == "1 ok: ok (--all-rows shows it).\n")
  }
}
