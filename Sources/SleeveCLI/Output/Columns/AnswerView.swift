/// An answer as a command prints it, declared once for every format: the lines above the table
/// (table and Markdown), the JSON document's members around its rows, and the rows with their
/// ``Columns``. ``CommandContext/print(_:)`` renders it in the chosen format.
struct AnswerView<Row>: Sendable where Row: Sendable {
  /// Lines above the table and the Markdown table (escaped for the format); not in JSON or CSV.
  var header: [String]
  /// The JSON document's members before the rows, in order.
  var fields: [(String, JSONValue)]
  /// The key of the rows' array in the JSON document (`groups`, `sessions`).
  var rowsKey: String
  /// The JSON document's members after the rows, in order.
  var trailingFields: [(String, JSONValue)] = []
  /// The rows' columns.
  let columns: Columns<Row>
  /// The rows, in the order every format shows them.
  let rows: [Row]

  /// The table every tabular format is rendered from.
  var table: Table { columns.table(rows) }

  /// The JSON document.
  var json: JSONValue {
    .object(fields + [(rowsKey, columns.json(rows))] + trailingFields)
  }
}

extension CommandContext {
  /// Writes `view` in the chosen format to standard output.
  func print<Row>(_ view: AnswerView<Row>) {
    console.out(
      format.render(table: view.table, json: view.json, header: view.header, display: display))
  }
}
