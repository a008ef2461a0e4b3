/// One column of a row type, declared once: its title (the header of the aligned table, CSV and
/// Markdown), its unit, whether tables right-align it or may fold it into notes, the cell a row
/// shows in it, and the members a row's JSON object gets from it.
///
/// A row type lists its columns in one array (``Columns``); every format is derived from that
/// array, so a column is added, renamed or removed in one place. A column may be table-only (no
/// JSON members: `p99` when JSON nests the percentiles) or JSON-only (no title), and its JSON
/// members may be more than one (an interval's `intervalLower` and `intervalUpper`): the table
/// shows the titled columns in order, and each row's JSON object the members in order.
struct Column<Row>: Sendable {
  /// What a column's values are, as its header and the JSON schema read them.
  enum Unit: String, Sendable {
    /// Free text: a name, a key, a status.
    case text
    /// A count of things (integers).
    case count
    /// Nanoseconds (the display shows `1.20 ms`, CSV and JSON the number).
    case nanoseconds
    /// A fraction in 0…1 (the display shows `13.33%`, CSV and JSON the fraction).
    case proportion
    /// Anything else numeric (a p-value, a ratio, a share in percent).
    case number
  }

  /// How the aligned table treats the column.
  enum Layout: Sendable {
    /// Left-aligned text that stays in the table.
    case text
    /// Right-aligned (numbers); an insufficient value (`*`) is dimmed on a colour terminal.
    case numeric
    /// Free text (a method, a reason, a message) that moves to numbered notes under a table
    /// too wide for the terminal (``TableLayout``).
    case freeText
  }

  /// Which tabular formats show a titled column (JSON shows its members whatever this says).
  enum Shown: Sendable {
    /// The aligned table, Markdown and CSV.
    case everywhere
    /// The aligned table and Markdown, not CSV (a row number).
    case tablesOnly
    /// CSV only: a column too wide for people's tables (evidence, an explanation).
    case csvOnly

    /// Whether a column shown so appears in `format`'s table.
    func includes(_ format: OutputFormat) -> Bool {
      switch self {
      case .everywhere: true
      case .tablesOnly: format != .csv
      case .csvOnly: format == .csv
      }
    }
  }

  /// One member of a row's JSON object.
  struct Member: Sendable {
    /// The key.
    let key: String
    /// The row's value for it.
    let value: @Sendable (Row) -> JSONValue
  }

  /// The header in table, CSV and Markdown; `nil` for a JSON-only column.
  let title: String?
  /// What the values are.
  let unit: Unit
  /// How the aligned table lays it out.
  let layout: Layout
  /// The row's cell (its display and its raw CSV value); only asked when ``title`` is set.
  let cell: @Sendable (Row) -> Table.Cell
  /// The row's JSON members from this column, in order (none for a table-only column).
  let members: [Member]
  /// Which tabular formats show it (``shown(_:)``; default: all of them).
  private(set) var shownIn = Shown.everywhere
  /// How it may leave a table people read (``folding(_:)``; default: never). The one
  /// declaration of a column's foldability: every command showing it folds it alike.
  private(set) var fold: Table.Fold?
  /// The row's JSON members when their keys depend on the row (a handler's `control` and
  /// `handler` where another key has one `key`); when set, it replaces ``members``
  /// (``Column/json(members:)``).
  private(set) var rowMembers: (@Sendable (Row) -> [(String, JSONValue)])?

  /// A column from its parts; the typed constructors below cover the usual units.
  init(
    _ title: String?, unit: Unit, layout: Layout, members: [Member],
    cell: @escaping @Sendable (Row) -> Table.Cell
  ) {
    self.title = title
    self.unit = unit
    self.layout = layout
    self.members = members
    self.cell = cell
  }
}

extension Column {
  /// This column, shown only in the tabular formats `shown` names.
  func shown(_ shown: Shown) -> Column {
    var column = self
    column.shownIn = shown
    return column
  }

  /// This column, free to leave the aligned table and Markdown as `fold` says (``Table/Fold``);
  /// CSV and JSON keep it whatever its values.
  func folding(_ fold: Table.Fold) -> Column {
    var column = self
    column.fold = fold
    return column
  }

  /// Text (a name, a key): the cell shows it as it is, JSON under `json` as a string.
  static func text(
    _ title: String, json: String?, layout: Layout = .text,
    _ value: @escaping @Sendable (Row) -> String
  ) -> Column {
    Column(
      title, unit: .text, layout: layout,
      members: json.map { key in [Member(key: key) { .string(value($0)) }] } ?? []
    ) { Table.Cell(value($0)) }
  }

  /// A count: the cell shows its digits, JSON under `json` as an integer (`null` for `nil`,
  /// shown as an empty cell).
  static func count<Value: BinaryInteger & Sendable>(
    _ title: String, json: String?, _ value: @escaping @Sendable (Row) -> Value?
  ) -> Column {
    Column(
      title, unit: .count, layout: .numeric,
      members: json.map { key in [Member(key: key) { .integer(value($0)) }] } ?? []
    ) { row in Table.Cell(Formatting.raw(value(row))) }
  }

  /// A duration in nanoseconds: the cell shows it for people (`1.20 ms`, `-` for `nil`) over
  /// its raw value, JSON under `json` as a number.
  static func duration(
    _ title: String, json: String?, _ value: @escaping @Sendable (Row) -> Double?
  ) -> Column {
    Column(
      title, unit: .nanoseconds, layout: .numeric,
      members: json.map { key in [Member(key: key) { .number(value($0)) }] } ?? []
    ) { row in
      Table.Cell(Formatting.duration(value(row)), raw: Formatting.raw(value(row)))
    }
  }

  /// A duration in whole nanoseconds: as ``duration(_:json:_:)-(_,_,(Row)->Double?)`` with
  /// JSON integers.
  static func duration(
    _ title: String, json: String?, _ value: @escaping @Sendable (Row) -> Int64?
  ) -> Column {
    Column(
      title, unit: .nanoseconds, layout: .numeric,
      members: json.map { key in [Member(key: key) { .integer(value($0)) }] } ?? []
    ) { row in
      Table.Cell(Formatting.duration(value(row).map(Double.init)), raw: Formatting.raw(value(row)))
    }
  }

  /// A proportion in 0…1: the cell shows a percentage (`13.33%`, `-` for `nil`) over the raw
  /// fraction, JSON under `json` as a number.
  static func proportion(
    _ title: String, json: String?, _ value: @escaping @Sendable (Row) -> Double?
  ) -> Column {
    Column(
      title, unit: .proportion, layout: .numeric,
      members: json.map { key in [Member(key: key) { .number(value($0)) }] } ?? []
    ) { row in Table.Cell(Formatting.percent(value(row)), raw: Formatting.raw(value(row))) }
  }

  /// A member of each row's JSON object that no table shows (a nested list, an id the table
  /// spells otherwise).
  static func json(_ key: String, _ value: @escaping @Sendable (Row) -> JSONValue) -> Column {
    Column(nil, unit: .text, layout: .text, members: [Member(key: key, value: value)]) { _ in
      Table.Cell("")
    }
  }
}

extension Column {
  /// This column laid out as `layout` instead (a column whose layout depends on where the
  /// answer puts it, e.g. the last of a varying set that may fold into notes).
  func laidOut(_ layout: Layout) -> Column {
    var column = Column(title, unit: unit, layout: layout, members: members, cell: cell)
    column.rowMembers = rowMembers
    column.fold = fold
    return column
  }

  /// Any other number (seconds, a ratio): the cell shows `display` of it (`-` for `nil`) over
  /// its raw value, JSON under `json` as a number (`null` for `nil`).
  static func number(
    _ title: String, json: String?, _ value: @escaping @Sendable (Row) -> Double?,
    display: @escaping @Sendable (Double) -> String
  ) -> Column {
    Column(
      title, unit: .number, layout: .numeric,
      members: json.map { key in [Member(key: key) { .number(value($0)) }] } ?? []
    ) { row in Table.Cell(value(row).map(display) ?? "-", raw: Formatting.raw(value(row))) }
  }
}

extension Column {
  /// This column without its JSON members: the table shows it, the JSON nests its values
  /// elsewhere (a cohort's columns flattened into a flag's table, nested under `on` in JSON).
  var tableOnly: Column {
    var column = Column(title, unit: unit, layout: layout, members: [], cell: cell)
    column.fold = fold
    return column
  }

  /// The row's JSON members from this column, in order.
  func jsonMembers(_ row: Row) -> [(String, JSONValue)] {
    rowMembers?(row) ?? members.map { ($0.key, $0.value(row)) }
  }

  /// This column titled `title` instead (a column repeated per side or cohort: `on n`).
  func titled(_ title: String) -> Column {
    var column = Column(title, unit: unit, layout: layout, members: members, cell: cell)
    column.rowMembers = rowMembers
    column.fold = fold
    return column
  }

  /// This column over a row that holds a `Row` (a flag's cohort, a diff row's side): the
  /// same title, unit, layout, cell and members, read through `part`.
  func over<Whole>(_ part: @escaping @Sendable (Whole) -> Row) -> Column<Whole> {
    let cell = self.cell
    var column = Column<Whole>(
      title, unit: Column<Whole>.Unit(rawValue: unit.rawValue) ?? .text,
      layout: Column<Whole>.Layout(layout),
      members: members.map { member in
        let value = member.value
        return Column<Whole>.Member(key: member.key) { value(part($0)) }
      }
    ) { cell(part($0)) }
    if let rowMembers { column.rowMembers = { rowMembers(part($0)) } }
    column.fold = fold
    return column
  }

  /// JSON members whose keys depend on the row, in order (no table shows them).
  static func json(members: @escaping @Sendable (Row) -> [(String, JSONValue)]) -> Column {
    var column = Column(nil, unit: .text, layout: .text, members: []) { _ in Table.Cell("") }
    column.rowMembers = members
    return column
  }
}

extension Column.Layout {
  /// The same layout, for a column of another row type.
  fileprivate init<Other>(_ other: Column<Other>.Layout) {
    switch other {
    case .text: self = .text
    case .numeric: self = .numeric
    case .freeText: self = .freeText
    }
  }
}
