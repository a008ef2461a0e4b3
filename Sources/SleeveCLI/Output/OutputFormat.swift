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

  /// Renders a report given as a table and as JSON.
  func render(table: Table, json: JSONValue, header: String?, console: Console) -> String {
    switch self {
    case .json: json.text + "\n"
    case .csv: table.csv
    case .markdown: (header.map { "\($0)\n\n" } ?? "") + table.markdown
    case .table: (header.map { "\($0)\n\n" } ?? "") + table.aligned(bold: console.usesColor)
    }
  }
}
