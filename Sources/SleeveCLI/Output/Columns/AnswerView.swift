/// An answer as a command prints it, declared once for every format: the lines above the table
/// (table and Markdown), the JSON document's members around its rows, and the rows with their
/// ``Columns``. ``CommandContext/print(_:)`` renders it in the chosen format.
struct AnswerView<Row>: Sendable where Row: Sendable {
  /// Lines above the table and the Markdown table (escaped for the format); not in JSON or CSV.
  var header: [String]
  /// The JSON document's members before the rows, in order.
  var fields: [(String, JSONValue)]
  /// The key of the rows' array in the JSON document (`groups`, `sessions`); `nil` when JSON
  /// reports the answer in its fields alone (`summarize` lists the summarizer's outcome).
  var rowsKey: String?
  /// The JSON document's members after the rows, in order.
  var trailingFields: [(String, JSONValue)] = []
  /// The rows' columns.
  let columns: Columns<Row>
  /// The rows, in the order every format shows them.
  let rows: [Row]

  /// The aligned table's (and Markdown's) table.
  var table: Table { table(for: .table) }

  /// The table `format` is rendered from.
  func table(for format: OutputFormat) -> Table { columns.table(rows, for: format) }

  /// The JSON document.
  var json: JSONValue {
    .object(fields + (rowsKey.map { [($0, columns.json(rows))] } ?? []) + trailingFields)
  }
}

extension AnswerView {
  /// A view whose table shows `rows` and whose JSON document is `document` alone: members the
  /// caller derives from `columns` for parts of the rows (`check`'s flags, checks and baseline
  /// checks, where the table lists them all).
  init(header: [String], document: [(String, JSONValue)], columns: Columns<Row>, rows: [Row]) {
    self.init(header: header, fields: document, rowsKey: nil, columns: columns, rows: rows)
  }
}

extension CommandContext {
  /// Writes `view` in the chosen format to standard output.
  func print<Row>(_ view: AnswerView<Row>) {
    console.out(
      format.render(
        table: view.table(for: format), json: view.json, header: view.header, display: display))
  }
}
