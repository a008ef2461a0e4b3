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
  /// Whether the JSON document holds ``rows`` under ``rowsKey``; `false` for a document whose
  /// members give the rows otherwise, each derived from ``columns`` by the caller (`check`'s
  /// flags, checks and baseline checks, where the table lists them all).
  var rowsInJSON = true

  /// The table every tabular format is rendered from.
  var table: Table { columns.table(rows) }

  /// The JSON document.
  var json: JSONValue {
    .object(fields + (rowsInJSON ? [(rowsKey, columns.json(rows))] : []) + trailingFields)
  }
}

extension AnswerView {
  /// A view whose table shows `rows` and whose JSON document is `document`, members the
  /// caller derives from `columns` for parts of the rows (``rowsInJSON`` is `false`).
  init(header: [String], document: [(String, JSONValue)], columns: Columns<Row>, rows: [Row]) {
    self.init(header: header, fields: document, rowsKey: "", columns: columns, rows: rows)
    rowsInJSON = false
  }
}

extension CommandContext {
  /// Writes `view` in the chosen format to standard output.
  func print<Row>(_ view: AnswerView<Row>) {
    console.out(
      format.render(table: view.table, json: view.json, header: view.header, display: display))
  }
}
