/// The columns of a row type, in order: the one declaration every format of its rows is built
/// from (``table(_:)`` for the aligned table, CSV and Markdown; ``json(_:)`` for JSON).
struct Columns<Row>: Sendable {
  /// The columns, titled ones in table order and JSON members in object order.
  let all: [Column<Row>]

  /// The declaration of `columns`.
  init(_ columns: [Column<Row>]) { all = columns }

  /// The titled columns.
  var titled: [Column<Row>] { all.filter { $0.title != nil } }

  /// The rows as a table: a header of the titles, numeric columns right-aligned, free-text
  /// columns free to fold into notes.
  func table(_ rows: [Row]) -> Table {
    let shown = titled
    var table = Table(
      columns: shown.map { $0.title ?? "" },
      numeric: Set(shown.indices.filter { shown[$0].layout == .numeric }),
      freeText: Set(shown.indices.filter { shown[$0].layout == .freeText }))
    table.rows = rows.map { row in shown.map { $0.cell(row) } }
    return table
  }

  /// The rows as a JSON array of objects, each with the columns' members in order.
  func json(_ rows: [Row]) -> JSONValue {
    .array(rows.map { row in .object(all.flatMap { $0.members.map { ($0.key, $0.value(row)) } }) })
  }
}
