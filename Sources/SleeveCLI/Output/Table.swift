/// Rows of cells with a header: rendered as an aligned table, CSV or Markdown.
///
/// Each cell has a display form (for people: `1.2 ms`, `13.3%`) and a raw form (for
/// machines: `1200000`, `0.133`); CSV uses the raw form.
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

  /// Columns padded to their widest cell, two spaces apart; the header optionally bold.
  func aligned(bold: Bool = false) -> String {
    let widths = columns.indices.map { column in
      max(columns[column].count, rows.map { $0[column].display.count }.max() ?? 0)
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { column, text in
        let pad = String(repeating: " ", count: widths[column] - text.count)
        return numeric.contains(column) ? pad + text : text + pad
      }.joined(separator: "  ").trimmingTrailingSpaces
    }
    let header = line(columns)
    var out = (bold ? "\u{1B}[1m" + header + "\u{1B}[0m" : header) + "\n"
    for row in rows { out += line(row.map(\.display)) + "\n" }
    return out
  }

  /// RFC 4180 CSV of the raw values.
  var csv: String {
    func field(_ text: String) -> String {
      guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
        return text
      }
      return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    var out = columns.map(field).joined(separator: ",") + "\n"
    for row in rows { out += row.map { field($0.raw) }.joined(separator: ",") + "\n" }
    return out
  }

  /// A GitHub-flavoured Markdown table of the display values.
  var markdown: String {
    func cell(_ text: String) -> String {
      text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
    }
    var out = "| " + columns.map(cell).joined(separator: " | ") + " |\n"
    out +=
      "|" + columns.indices.map { numeric.contains($0) ? "---:" : "---" }.joined(separator: "|")
      + "|\n"
    for row in rows { out += "| " + row.map { cell($0.display) }.joined(separator: " | ") + " |\n" }
    return out
  }
}

extension String {
  var trimmingTrailingSpaces: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
