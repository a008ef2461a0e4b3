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

    init(_ display: String, raw: String? = nil) {
      self.display = display
      self.raw = raw ?? display
    }

    init(stringLiteral value: String) { self.init(value) }
  }

  /// Column titles; numeric columns are right-aligned in tables.
  let columns: [String]
  let numeric: Set<Int>
  var rows: [[Cell]] = []

  init(columns: [String], numeric: Set<Int> = []) {
    self.columns = columns
    self.numeric = numeric
  }

  /// Columns padded to their widest cell (measured on the escaped text), two spaces apart;
  /// the header optionally bold. Every cell is escaped with `TerminalText`.
  func aligned(bold: Bool = false) -> String {
    let header = columns.map(TerminalText.escaped)
    let body = rows.map { $0.map { TerminalText.escaped($0.display) } }
    let widths = columns.indices.map { column in
      max(header[column].count, body.map { $0[column].count }.max() ?? 0)
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { column, text in
        let pad = String(repeating: " ", count: widths[column] - text.count)
        return numeric.contains(column) ? pad + text : text + pad
      }.joined(separator: "  ").trimmingTrailingSpaces
    }
    let title = line(header)
    var out = (bold ? "\u{1B}[1m" + title + "\u{1B}[0m" : title) + "\n"
    for row in body { out += line(row) + "\n" }
    return out
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
