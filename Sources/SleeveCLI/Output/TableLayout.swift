import Foundation

/// The layouts of the table format (`TerminalDisplay` picks one):
///
/// - **full**: every column padded to its widest cell, two spaces apart (pipes, files, `--wide`,
///   and a terminal wide enough);
/// - **noted**: the full table with each free-text cell (a method, a reason) replaced by a
///   `[n]` reference to a numbered note under the table (equal texts share a note), when that
///   fits the terminal;
/// - **expanded**: one block per row, `-[ RECORD n ]` then `field  value` lines, as `psql`'s
///   `\x` prints (`--expanded`, and a terminal too narrow for the others); a value too long for
///   its line continues on the next ones, under itself; when even the field names leave no room,
///   each field name is on its own line and its value on the lines below, indented two spaces.
///
/// Every line of the noted and expanded layouts fits the width in terminal cells (`CellWidth`),
/// and every value of the full table is shown, whole or in consecutive pieces.
enum TableLayout {
  /// The fewest cells a value gets beside its field name; below that, the stacked form.
  static let narrowestValue = 16

  /// The header lines (wrapped at spaces to the width, except in the full layout), a blank
  /// line, then `table` laid out for `display`.
  static func render(_ table: Table, header: [String], display: TerminalDisplay) -> String {
    var out = ""
    for line in header {
      let escaped = TerminalText.escaped(line)
      let fits = display.layout == .wide ? nil : display.width
      let lines = fits.map { CellText.wrapped(escaped, width: $0) } ?? [escaped]
      for piece in lines {
        out += (display.colored ? emphasized(piece) : piece) + "\n"
      }
    }
    if !header.isEmpty { out += "\n" }
    return out + body(table, display: display)
  }

  /// `table` alone, laid out for `display`. On a terminal that folds rows
  /// (``TerminalDisplay/foldsRows``), the rows that need no attention leave it for a note
  /// under it first (``Table/rowFolded(shownBy:)``; only that note when every row folds).
  /// Columns 0 in every row fold into a note under it in every layout; on a terminal too narrow for the full table, the other foldable
  /// columns fold too (``Table/widthFolded()``) before free text moves to notes, and before
  /// the expanded layout.
  static func body(_ table: Table, display: TerminalDisplay) -> String {
    let (kept, rowNotes) =
      display.foldsRows
      ? table.rowFolded(shownBy: "--" + TerminalDisplay.allRows.spec.name) : (table, [])
    if kept.rows.isEmpty && !rowNotes.isEmpty {
      return String(
        foldNotes(rowNotes, width: display.layout == .wide ? nil : display.width).dropFirst())
    }
    let (table, columnNotes) = kept.zeroFolded()
    let notes = rowNotes + columnNotes
    let header = table.columns.map(TerminalText.escaped)
    let rows = table.escapedRows()
    switch display.layout {
    case .wide:
      return full(header: header, rows: rows, table: table, colored: display.colored)
        + foldNotes(notes, width: nil)
    case .expanded:
      return expanded(
        header: header, rows: rows, table: table, colored: display.colored,
        width: display.width) + foldNotes(notes, width: display.width)
    case .fit:
      guard let width = display.width else {
        return full(header: header, rows: rows, table: table, colored: display.colored)
          + foldNotes(notes, width: nil)
      }
      if fullWidth(header: header, rows: rows) <= width {
        return full(header: header, rows: rows, table: table, colored: display.colored)
          + foldNotes(notes, width: width)
      }
      let (narrow, narrowNotes) = table.widthFolded()
      let narrowHeader = narrow.columns.map(TerminalText.escaped)
      let narrowRows = narrow.escapedRows()
      if narrow.columns.count < table.columns.count,
        fullWidth(header: narrowHeader, rows: narrowRows) <= width
      {
        return full(
          header: narrowHeader, rows: narrowRows, table: narrow, colored: display.colored)
          + foldNotes(narrowNotes + notes, width: width)
      }
      if !narrow.freeText.isEmpty {
        let (referenced, texts) = noted(rows: narrowRows, freeText: narrow.freeText)
        if fullWidth(header: narrowHeader, rows: referenced) <= width {
          return full(
            header: narrowHeader, rows: referenced, table: narrow, colored: display.colored)
            + "\n" + notesText(texts, width: width)
            + foldNotes(narrowNotes + notes, width: width)
        }
      }
      return expanded(
        header: header, rows: rows, table: table, colored: display.colored, width: width)
        + foldNotes(notes, width: width)
    }
  }

  /// The notes of folded columns (``Table/Fold``), after a blank line, each escaped and
  /// wrapped at spaces to `width`; empty without notes.
  static func foldNotes(_ notes: [String], width: Int?) -> String {
    guard !notes.isEmpty else { return "" }
    return "\n"
      + notes.flatMap { note in
        let escaped = TerminalText.escaped(note)
        return width.map { CellText.wrapped(escaped, width: $0) } ?? [escaped]
      }.map { $0 + "\n" }.joined()
  }

  /// The cells the full table's widest line takes.
  static func fullWidth(header: [String], rows: [[String]]) -> Int {
    let widths = columnWidths(header: header, rows: rows)
    return widths.reduce(0, +) + 2 * max(widths.count - 1, 0)
  }

  /// The full table of escaped `header` and `rows`; `table` gives alignment and tones.
  static func full(header: [String], rows: [[String]], table: Table, colored: Bool) -> String {
    let widths = columnWidths(header: header, rows: rows)
    func line(_ cells: [String], tone: (Int) -> Tone?) -> String {
      cells.enumerated().map { column, text in
        let pad = String(repeating: " ", count: widths[column] - CellWidth.of(text))
        let shown = colored ? tone(column)?.apply(to: text) ?? text : text
        return table.numeric.contains(column) ? pad + shown : shown + pad
      }.joined(separator: "  ").trimmingTrailingSpaces
    }
    let title = line(header) { _ in nil }
    var out = (colored ? Tone.strong.apply(to: title) : title) + "\n"
    for (index, row) in rows.enumerated() {
      out += line(row) { table.tone(row: index, column: $0) } + "\n"
    }
    return out
  }

  /// One block per row; values cut to `width` when given. A free-text value (a method) that
  /// more than one record holds, too wide for one line beside its field (without a width:
  /// wider than 40 cells), is printed once as a numbered note after the records and referenced
  /// as `[n]`, as the noted layout does.
  static func expanded(
    header: [String], rows full: [[String]], table: Table, colored: Bool, width: Int?
  ) -> String {
    guard !full.isEmpty else { return "(0 rows)\n" }
    let fieldWidth = header.map(CellWidth.of).max() ?? 0
    let valueWidth = width.map { $0 - fieldWidth - 2 }
    let stacked = valueWidth.map { $0 < narrowestValue } ?? false
    let room = width.map { stacked ? $0 - 2 : $0 - fieldWidth - 2 } ?? 40
    let (rows, notes) = repeatedNoted(rows: full, freeText: table.freeText, wider: room)
    var out = ""
    for (index, row) in rows.enumerated() {
      let title = "-[ RECORD \(index + 1) ]"
      let rule = min(width ?? 40, 40) - CellWidth.of(title)
      out += title + String(repeating: "-", count: max(rule, 0)) + "\n"
      for (column, value) in row.enumerated() {
        let tone = colored ? table.tone(row: index, column: column) : nil
        func shown(_ piece: String) -> String { tone?.apply(to: piece) ?? piece }
        if stacked, let width {
          for piece in CellText.pieces(header[column], width: width) { out += piece + "\n" }
          if !value.isEmpty {
            for piece in CellText.pieces(value, width: width - 2) {
              out += "  " + shown(piece) + "\n"
            }
          }
          continue
        }
        let pieces = valueWidth.map { CellText.pieces(value, width: $0) } ?? [value]
        let field = CellText.padded(header[column], to: fieldWidth)
        out +=
          (value.isEmpty ? field.trimmingTrailingSpaces : field + "  " + shown(pieces[0])) + "\n"
        for piece in pieces.dropFirst() {
          out += String(repeating: " ", count: fieldWidth + 2) + shown(piece) + "\n"
        }
      }
    }
    return notes.isEmpty ? out : out + "\n" + notesText(notes, width: width)
  }

  /// `rows` with each free-text cell that more than one row holds and that is wider than
  /// `room` cells replaced by `[n]`, and the notes' texts in order.
  static func repeatedNoted(rows: [[String]], freeText: Set<Int>, wider room: Int)
    -> ([[String]], [String])
  {
    var counts: [String: Int] = [:]
    for row in rows {
      for column in freeText where column < row.count { counts[row[column], default: 0] += 1 }
    }
    var notes: [String] = []
    var numbers: [String: Int] = [:]
    let referenced = rows.map { row in
      row.enumerated().map { column, text in
        guard freeText.contains(column), counts[text, default: 0] > 1,
          CellWidth.of(text) > room
        else { return text }
        if let number = numbers[text] { return "[\(number)]" }
        notes.append(text)
        numbers[text] = notes.count
        return "[\(notes.count)]"
      }
    }
    return (referenced, notes)
  }

  /// `rows` with each free-text cell replaced by `[n]`, and the notes' texts in order (equal
  /// texts share a number).
  static func noted(rows: [[String]], freeText: Set<Int>) -> ([[String]], [String]) {
    var notes: [String] = []
    var numbers: [String: Int] = [:]
    let referenced = rows.map { row in
      row.enumerated().map { column, text in
        guard freeText.contains(column), !text.isEmpty else { return text }
        if let number = numbers[text] { return "[\(number)]" }
        notes.append(text)
        numbers[text] = notes.count
        return "[\(notes.count)]"
      }
    }
    return (referenced, notes)
  }

  /// `[n] text` lines, a text too long for its line continuing under itself (no width: one
  /// line each).
  static func notesText(_ notes: [String], width: Int?) -> String {
    var out = ""
    for (index, note) in notes.enumerated() {
      let prefix = "[\(index + 1)] "
      let pieces =
        width.map { CellText.pieces(note, width: max($0 - prefix.utf8.count, 1)) } ?? [note]
      out += prefix + pieces[0] + "\n"
      for piece in pieces.dropFirst() {
        out += String(repeating: " ", count: prefix.utf8.count) + piece + "\n"
      }
    }
    return out
  }

  /// Each column's width in cells: its widest cell or title.
  private static func columnWidths(header: [String], rows: [[String]]) -> [Int] {
    header.indices.map { column in
      max(CellWidth.of(header[column]), rows.map { CellWidth.of($0[column]) }.max() ?? 0)
    }
  }

  /// A header line on a colour terminal: a decision line (`… Decision: rollback …`) bold with
  /// its decision word in the decision's colour; any other line as it is.
  static func emphasized(_ line: String) -> String {
    guard let marker = line.range(of: "Decision: ", options: .backwards) else { return line }
    let rest = line[marker.upperBound...]
    let word = String(rest.prefix { $0.isLetter })
    let after = rest.dropFirst(word.count)
    let colour =
      switch Tone.ofVerdict(word) {
      case .bad: "\u{1B}[31m"
      case .caution: "\u{1B}[33m"
      case .good: "\u{1B}[32m"
      default: ""
      }
    let reset = colour.isEmpty ? "" : "\u{1B}[39m"
    return "\u{1B}[1m" + line[..<marker.upperBound] + colour + word + reset + after + "\u{1B}[0m"
  }
}
