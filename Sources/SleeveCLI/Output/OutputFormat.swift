/// How a command prints its data.
enum OutputFormat: String, CaseIterable, Sendable {
  /// An aligned table for people.
  case table
  /// JSON with stable keys, for machines.
  case json
  /// CSV of raw values.
  case csv
  /// A Markdown table, for PR comments and CI summaries.
  case markdown

  /// Renders a report given as a table and as JSON. The `header` lines go above the aligned
  /// and the Markdown table (not into JSON or CSV), each escaped for the format, so a recorded
  /// name in one stays on its line. Only the table format depends on `display` (the terminal's
  /// width, the layout asked for, colour; see `TableLayout`).
  func render(table: Table, json: JSONValue, header: [String], display: TerminalDisplay)
    -> String
  {
    let lines = header.map { escapedLine($0) + "\n" }.joined()
    let heading = lines.isEmpty ? "" : lines + "\n"
    return switch self {
    case .json: json.text + "\n"
    case .csv: table.csv
    case .markdown: heading + table.markdown
    case .table: TableLayout.render(table, header: header, display: display)
    }
  }

  /// One line of prose for this format: escaped with `TerminalText` for a table, with
  /// `MarkdownText` for Markdown; JSON and CSV carry no prose, so it is returned as it is.
  func escapedLine(_ line: String) -> String {
    switch self {
    case .table: TerminalText.escaped(line)
    case .markdown: MarkdownText.escaped(line)
    case .json, .csv: line
    }
  }
}
