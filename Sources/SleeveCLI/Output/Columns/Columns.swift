/// The columns of a row type, in order: the one declaration every format of its rows is built
/// from (``table(_:)`` for the aligned table, CSV and Markdown; ``json(_:)`` for JSON).
struct Columns<Row>: Sendable {
  /// The columns, titled ones in table order and JSON members in object order.
  let all: [Column<Row>]
  /// Which rows need no attention and may fold into a note on a terminal, and how the note
  /// names them (``foldingRows(name:_:)``; default: none). The one declaration of a row
  /// type's foldability: every command showing its rows folds them alike.
  private(set) var rowFolding: RowFolding?

  /// Which rows fold into a note on a terminal (``Table/RowFold``), and their names there.
  struct RowFolding: Sendable {
    /// A folded row's name in its note.
    let name: @Sendable (Row) -> String
    /// The kind of note a row folds into (`nil`: it stays in the table).
    let kind: @Sendable (Row) -> Table.RowFold.Noun?
  }

  /// The declaration of `columns`.
  init(_ columns: [Column<Row>]) { all = columns }

  /// These columns, whose rows `kind` gives a noun leave the table on a terminal, one note
  /// per noun (`6 unchanged: a, b and 4 more`), each row named by `name`
  /// (``Table/RowFold``). CSV, Markdown, JSON and pipes keep every row.
  func foldingRows(
    name: @escaping @Sendable (Row) -> String,
    _ kind: @escaping @Sendable (Row) -> Table.RowFold.Noun?
  ) -> Columns {
    var columns = self
    columns.rowFolding = RowFolding(name: name, kind: kind)
    return columns
  }

  /// The titled columns.
  var titled: [Column<Row>] { all.filter { $0.title != nil } }

  /// The rows as `format`'s table (default: the aligned table's, which Markdown shares; CSV
  /// leaves out the table-only columns and adds the CSV-only ones): a header of the titles,
  /// numeric columns right-aligned, free-text columns free to fold into notes, and (not in CSV)
  /// each column's ``Table/Fold`` and the rows' ``Table/RowFold``.
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
      if let rowFolding { table.rowFold = rowFolding.fold(rows) }
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
    var joined = Columns(columns.all + more)
    joined.rowFolding = columns.rowFolding
    return joined
  }

  /// These columns over a row that holds a `Row` (``Column/over(_:)``).
  func over<Whole>(_ part: @escaping @Sendable (Whole) -> Row) -> [Column<Whole>] {
    all.map { $0.over(part) }
  }
}

extension Columns.RowFolding {
  /// The folded rows of `rows`, a kind per noun in the order of its first row.
  func fold(_ rows: [Row]) -> Table.RowFold {
    var nouns: [Table.RowFold.Noun] = []
    var indices: [Table.RowFold.Noun: [Int]] = [:]
    for (index, row) in rows.enumerated() {
      guard let noun = kind(row) else { continue }
      if indices[noun] == nil { nouns.append(noun) }
      indices[noun, default: []].append(index)
    }
    return Table.RowFold(
      kinds: nouns.map { noun in
        let folded = indices[noun] ?? []
        return Table.RowFold.Kind(
          noun: noun, rows: folded, names: folded.map { name(rows[$0]) })
      })
  }
}
