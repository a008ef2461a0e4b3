import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Over seeded random tables (long names, many percentile columns, wide Unicode, combining
/// marks, controls, free text): on a terminal of any width from 20 to 200 columns, no line is
/// wider than the terminal and every value of the full table is still shown (a free text
/// repeated across records of the expanded layout in its numbered note).
@Suite("Table layout property")
struct TableLayoutPropertyTests {
  static let fragments = [
    "checkout", "validate-cart", "支払い確認", "漢字", "e\u{301}\u{301}", "\u{1F642}", "Ａｂｃ",
    "a\u{20DD}", "x\u{200D}y", "\u{1B}[31m", "tab\there", " ", "  ", "long-", "ok", "é",
    "p99.9", "-", "12.34 ms", "[0.00%, 24.25%]", "\u{AD}", "\u{3000}", "🇫🇷",
  ]

  /// The cells each non-ASCII scalar of `fragments` takes, written out by hand (an oracle
  /// independent of `CellWidth`): CJK and fullwidth two, combining and format marks zero.
  static let oracle: [Unicode.Scalar: Int] = {
    var cells: [Unicode.Scalar: Int] = [:]
    for scalar in "支払い確認漢字\u{1F642}Ａｂｃ\u{3000}".unicodeScalars { cells[scalar] = 2 }
    for scalar in "\u{301}\u{20DD}\u{200D}".unicodeScalars { cells[scalar] = 0 }
    for scalar in "é\u{AD}🇫🇷".unicodeScalars { cells[scalar] = 1 }
    return cells
  }()

  /// The widest line of `text` by the oracle (ASCII one cell); `nil` for an unknown scalar.
  static func widestLine(_ text: String) -> Int? {
    var widest = 0
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      var cells = 0
      for scalar in line.unicodeScalars {
        guard let width = scalar.isASCII ? 1 : oracle[scalar] else { return nil }
        cells += width
      }
      widest = max(widest, cells)
    }
    return widest
  }

  /// A random text of 0 to `maximum` fragments.
  static func text(_ generator: inout SeededGenerator, maximum: Int) -> String {
    let count = Int.random(in: 0...maximum, using: &generator)
    return (0..<count).map { _ in fragments.randomElement(using: &generator)! }.joined()
  }

  /// A random table: 1 to 24 columns (percentile-like titles), 0 to 6 rows, free text
  /// repeated from the row above half the time.
  static func table(_ generator: inout SeededGenerator) -> Table {
    let count = Int.random(in: 1...24, using: &generator)
    let titles = (0..<count).map { index in
      index == 0 ? "handler" : Bool.random(using: &generator) ? "p\(index).9" : "column \(index)"
    }
    let numeric = Set((1..<count).filter { _ in Bool.random(using: &generator) })
    let freeText = Set((0..<count).filter { _ in Int.random(in: 0..<4, using: &generator) == 0 })
    var table = Table(columns: titles, numeric: numeric, freeText: freeText)
    for _ in 0..<Int.random(in: 0...6, using: &generator) {
      let previous = table.rows.last
      table.rows.append(
        (0..<count).map { column in
          let long = freeText.contains(column) || column == 0
          // Free text repeats across rows half the time, as a method does.
          let repeated = freeText.contains(column) && Bool.random(using: &generator)
          let text =
            repeated
            ? previous?[column].display ?? "" : Self.text(&generator, maximum: long ? 40 : 4)
          let verdicts = ["breach", "pass", "insufficient"]
          return Table.Cell(
            text,
            tone: column == 1 ? Tone.ofVerdict(verdicts.randomElement(using: &generator)!) : nil)
        })
    }
    return table
  }

  /// Reads the expanded layout back: each record's values, in column order, pieces joined, a
  /// free-text `[n]` read from the numbered notes after the records.
  static func expandedValues(
    _ lines: [String], titles: [String], freeText: Set<Int>, width: Int
  ) -> [[String]]? {
    let end = lines.firstIndex(of: "") ?? lines.count
    let notes = Self.notes(Array(lines[end...]))
    return records(Array(lines[..<end]), titles: titles, width: width)?.map { values in
      values.enumerated().map { column, value in
        guard freeText.contains(column), value.hasPrefix("["), value.hasSuffix("]"),
          let number = Int(value.dropFirst().dropLast()), notes.indices.contains(number - 1)
        else { return value }
        return notes[number - 1]
      }
    }
  }

  /// The records of the expanded layout's `lines` (the notes left out).
  static func records(_ lines: [String], titles: [String], width: Int) -> [[String]]? {
    let fieldWidth = titles.map(CellWidth.of).max() ?? 0
    let stacked = width - fieldWidth - 2 < TableLayout.narrowestValue
    var records: [[String]] = []
    var index = 0
    while index < lines.count {
      guard lines[index].hasPrefix("-[ RECORD \(records.count + 1) ]") else { return nil }
      index += 1
      var values: [String] = []
      for title in titles {
        guard index < lines.count else { return nil }
        if stacked {
          guard lines[index] == title else { return nil }
          index += 1
          var value = ""
          while index < lines.count, lines[index].hasPrefix("  ") {
            value += String(String.UnicodeScalarView(lines[index].unicodeScalars.dropFirst(2)))
            index += 1
          }
          values.append(value)
        } else {
          let field = CellText.padded(title, to: fieldWidth)
          if lines[index] == field.trimmingTrailingSpaces {
            values.append("")
            index += 1
            continue
          }
          guard lines[index].hasPrefix(field + "  ") else { return nil }
          var value = String(lines[index].dropFirst(field.count + 2))
          index += 1
          let indent = String(repeating: " ", count: fieldWidth + 2)
          while index < lines.count, lines[index].hasPrefix(indent) {
            value += String(lines[index].dropFirst(indent.count))
            index += 1
          }
          values.append(value)
        }
      }
      records.append(values)
    }
    return records
  }

  /// Reads the noted layout's notes back: `[n] text` with its continuation lines.
  static func notes(_ lines: [String]) -> [String] {
    var notes: [String] = []
    var indent = 0
    for line in lines {
      let prefix = "[\(notes.count + 1)] "
      if line.hasPrefix(prefix) {
        notes.append(String(line.dropFirst(prefix.count)))
        indent = prefix.count
      } else if !notes.isEmpty, line.hasPrefix(String(repeating: " ", count: indent)) {
        notes[notes.count - 1] += String(line.dropFirst(indent))
      }
    }
    return notes
  }

  /// Whether `line` holds `text`, scalar for scalar (empty text is always held).
  static func holds(_ line: String, _ text: String) -> Bool {
    let haystack = Array(line.unicodeScalars)
    let needle = Array(text.unicodeScalars)
    guard !needle.isEmpty else { return true }
    guard needle.count <= haystack.count else { return false }
    return (0...(haystack.count - needle.count)).contains {
      haystack[$0..<($0 + needle.count)].elementsEqual(needle)
    }
  }

  @Test("no line exceeds the width and every value of the full table is shown (seeded)")
  func everyValueFitsAndIsShown() {
    let base = UInt64(ProcessInfo.processInfo.environment["SLEEVE_SEED"] ?? "") ?? 20_261_201
    for trial in 0..<400 {
      let seed = base &+ UInt64(trial)
      var generator = SeededGenerator(seed: seed)
      let table = Self.table(&generator)
      let width = Int.random(in: 20...200, using: &generator)
      let colored = Bool.random(using: &generator)
      let header = [Self.text(&generator, maximum: 30)]
      let display = TerminalDisplay(width: width, layout: .fit, colored: colored)
      let out = TerminalRunner.withoutColour(
        TableLayout.render(table, header: header, display: display))
      let replay = "seed \(seed) (SLEEVE_SEED=\(base) replays the run); width \(width)"
      let widest = Self.widestLine(out)
      #expect(widest != nil && widest! <= width, "\(replay)\n\(out)")
      let full = table.escapedRows()
      let bodyText = TerminalRunner.withoutColour(TableLayout.body(table, display: display))
      #expect(out.hasSuffix(bodyText))
      var body = bodyText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      body.removeLast()  // after the final newline
      if let first = body.first, first.hasPrefix("-[ RECORD") || first == "(0 rows)" {
        let titles = table.columns.map(TerminalText.escaped)
        let records =
          first == "(0 rows)"
          ? []
          : Self.expandedValues(body, titles: titles, freeText: table.freeText, width: width)
        #expect(records == full, "\(replay)\n\(out)")
        continue
      }
      let rowLines = Array(body.dropFirst().prefix(full.count))
      let notes = Self.notes(Array(body.dropFirst(1 + full.count)))
      for (row, cells) in full.enumerated() {
        for (column, value) in cells.enumerated() where !value.isEmpty {
          let line = row < rowLines.count ? rowLines[row] : ""
          #expect(
            // The full table itself ends a line without its trailing spaces.
            Self.holds(line, value.trimmingTrailingSpaces)
              || (table.freeText.contains(column) && notes.contains(value)),
            "\(replay): row \(row) column \(column) value \(value.debugDescription) not shown\n\(out)"
          )
        }
      }
    }
  }
}
