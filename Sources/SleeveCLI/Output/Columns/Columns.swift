/// The columns of a row type, in order: the one declaration every format of its rows is built
/// from (``table(_:)`` for the aligned table, CSV and Markdown; ``json(_:)`` for JSON).
struct Columns<Row>: Sendable {
  /// The columns, titled ones in table order and JSON members in object order.
  let all: [Column<Row>]

  /// The declaration of `columns`.
  init(_ columns: [Column<Row>]) { all = columns }

  /// The titled columns.
  var titled: [Column<Row>] { all.filter { $0.title != nil } }

  /// The rows as `format`'s table (default: the aligned table's, which Markdown shares; CSV
  /// leaves out the table-only columns and adds the CSV-only ones): a header of the titles,
  /// numeric columns right-aligned, free-text columns free to fold into notes, and (not in CSV)
  /// each column's ``Table/Fold``.
  func table(_ rows: [Row], for format: OutputFormat = .table) -> Table {
    let shown = titled.filter { $0.shownIn.includes(format) }
    var table = Table(
      columns: shown.map { $0.title ?? "" },
      numeric: Set(shown.indices.filter { shown[$0].layout == .numeric }),
      freeText: Set(shown.indices.filter { shown[$0].layout == .freeText }))
    table.rows = rows.map { row in shown.map { $0.cell(row) } }
    if format != .csv {
      table.folds = Dictionary(
        uniqueKeysWithValues: shown.indices.compactMap { index in
          shown[index].fold.map { (index, $0) }
        })
    }
    return table
  }

  /// The rows as a JSON array of objects, each with the columns' members in order.
  func json(_ rows: [Row]) -> JSONValue {
    .array(rows.map(object))
  }

  /// One row's JSON object: the columns' members in order.
  func object(_ row: Row) -> JSONValue {
    .object(members(row))
  }

  /// One row's JSON members in order, for an object that adds members of its own.
  func members(_ row: Row) -> [(String, JSONValue)] {
    all.flatMap { $0.jsonMembers(row) }
  }

  /// These columns followed by `more`.
  static func + (columns: Columns, more: [Column<Row>]) -> Columns {
    Columns(columns.all + more)
  }

  /// These columns over a row that holds a `Row` (``Column/over(_:)``).
  func over<Whole>(_ part: @escaping @Sendable (Whole) -> Row) -> [Column<Whole>] {
    all.map { $0.over(part) }
  }
}
