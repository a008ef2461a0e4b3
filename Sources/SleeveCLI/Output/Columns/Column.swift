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
