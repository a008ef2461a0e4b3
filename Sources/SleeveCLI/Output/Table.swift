/// Rows of cells with a header: rendered as an aligned table, CSV or Markdown.
///
/// Each cell has a display form (for people: `1.2 ms`, `13.3%`) and a raw form (for
/// machines: `1200000`, `0.133`); CSV uses the raw form. Whatever the cells hold, each row is
/// one line in every format: the aligned table shows controls in `TerminalText`'s visible
/// notation, Markdown escapes with `MarkdownText`, CSV quotes with `CSVText`.
struct Table: Sendable {
  /// One cell.
  struct Cell: Sendable, ExpressibleByStringLiteral {
    let display: String
    let raw: String
    /// How it stands out on a colour terminal (`nil`: plain).
    let tone: Tone?

    init(_ display: String, raw: String? = nil, tone: Tone? = nil) {
      self.display = display
      self.raw = raw ?? display
      self.tone = tone
    }

    init(stringLiteral value: String) { self.init(value) }
  }

  /// Column titles; numeric columns are right-aligned in tables.
  let columns: [String]
  let numeric: Set<Int>
  /// Free-text columns (a method, a reason, a message, a path): on a terminal too narrow for
  /// the full table they move to numbered notes under it (see `TableLayout`).
  let freeText: Set<Int>
  var rows: [[Cell]] = []

  init(columns: [String], numeric: Set<Int> = [], freeText: Set<Int> = []) {
    self.columns = columns
    self.numeric = numeric
    self.freeText = freeText
  }

  /// Columns padded to their widest cell (measured in terminal cells on the escaped text, see
  /// `CellWidth`), two spaces apart; with `colored`, the header bold and each toned cell in
  /// its colour. Every cell is escaped with `TerminalText`. What a pipe or file gets.
  func aligned(bold colored: Bool = false) -> String {
    TableLayout.full(
      header: columns.map(TerminalText.escaped), rows: escapedRows(), table: self,
      colored: colored)
  }

  /// Each row's display values, escaped with `TerminalText`.
  func escapedRows() -> [[String]] {
    rows.map { $0.map { TerminalText.escaped($0.display) } }
  }

  /// The tone of the cell at `row`, `column` when coloured: its own, else dimmed for a number
  /// marked insufficient (`*`), else none.
  func tone(row: Int, column: Int) -> Tone? {
    let cell = rows[row][column]
    if let tone = cell.tone { return tone }
    return numeric.contains(column) && cell.display.hasSuffix("*") ? .muted : nil
  }

  /// RFC 4180 CSV of the raw values, formulas neutralized (see `CSVText`).
  var csv: String {
    var out = CSVText.record(columns, formulas: .neutralized)
    for row in rows { out += CSVText.record(row.map(\.raw), formulas: .neutralized) }
    return out
  }

  /// A GitHub-flavoured Markdown table of the display values, escaped with `MarkdownText`.
  var markdown: String {
    var out = "| " + columns.map(MarkdownText.escaped).joined(separator: " | ") + " |\n"
    out +=
      "|" + columns.indices.map { numeric.contains($0) ? "---:" : "---" }.joined(separator: "|")
      + "|\n"
    for row in rows {
      out += "| " + row.map { MarkdownText.escaped($0.display) }.joined(separator: " | ") + " |\n"
    }
    return out
  }
}

extension String {
  var trimmingTrailingSpaces: String {
    var text = self
    while text.unicodeScalars.last == " " { text.unicodeScalars.removeLast() }
    return text
  }
}
