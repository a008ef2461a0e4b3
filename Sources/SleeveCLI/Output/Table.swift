/// Rows of cells with a header: rendered as an aligned table, CSV or Markdown.
///
/// Each cell has a display form (for people: `1.2 ms`, `13.3%`) and a raw form (for
/// machines: `1200000`, `0.133`); CSV uses the raw form. Whatever the cells hold, each row is
/// one line in every format: the aligned table shows controls in `TerminalText`'s visible
/// notation, Markdown escapes with `MarkdownText`, CSV quotes with `CSVText`.
struct Table: Sendable {
  /// One cell.
  struct Cell: Sendable, ExpressibleByStringLiteral {
    let display: String
    let raw: String
    /// How it stands out on a colour terminal (`nil`: plain).
    let tone: Tone?

    init(_ display: String, raw: String? = nil, tone: Tone? = nil) {
      self.display = display
      self.raw = raw ?? display
      self.tone = tone
    }

    init(stringLiteral value: String) { self.init(value) }
  }

  /// Column titles; numeric columns are right-aligned in tables.
  let columns: [String]
  let numeric: Set<Int>
  /// Free-text columns (a method, a reason, a message, a path): on a terminal too narrow for
  /// the full table they move to numbered notes under it (see `TableLayout`).
  let freeText: Set<Int>
  var rows: [[Cell]] = []
  /// The columns that may leave the table people read, and how (``Fold``); CSV never folds.
  var folds: [Int: Fold] = [:]
  /// The rows that may leave the table on a terminal, and how they are named
  /// (``RowFold``); CSV, Markdown and pipes keep every row.
  var rowFold: RowFold?

  init(columns: [String], numeric: Set<Int> = [], freeText: Set<Int> = []) {
    self.columns = columns
    self.numeric = numeric
    self.freeText = freeText
  }

  /// Columns padded to their widest cell (measured in terminal cells on the escaped text, see
  /// `CellWidth`), two spaces apart; with `colored`, the header bold and each toned cell in
  /// its colour. Every cell is escaped with `TerminalText`. What a pipe or file gets.
  func aligned(bold colored: Bool = false) -> String {
    TableLayout.full(
      header: columns.map(TerminalText.escaped), rows: escapedRows(), table: self,
      colored: colored)
  }

  /// Each row's display values, escaped with `TerminalText`.
  func escapedRows() -> [[String]] {
    rows.map { $0.map { TerminalText.escaped($0.display) } }
  }

  /// The tone of the cell at `row`, `column` when coloured: its own, else dimmed for a number
  /// marked insufficient (`*`), else none.
  func tone(row: Int, column: Int) -> Tone? {
    let cell = rows[row][column]
    if let tone = cell.tone { return tone }
    return numeric.contains(column) && cell.display.hasSuffix("*") ? .muted : nil
  }

  /// RFC 4180 CSV of the raw values, formulas neutralized (see `CSVText`).
  var csv: String {
    var out = CSVText.record(columns, formulas: .neutralized)
    for row in rows { out += CSVText.record(row.map(\.raw), formulas: .neutralized) }
    return out
  }

  /// A GitHub-flavoured Markdown table of the display values, escaped with `MarkdownText`;
  /// columns 0 in every row (``Fold/zero``) are left out and named in a line under it.
  var markdown: String {
    let (table, notes) = zeroFolded()
    let lines = notes.map { MarkdownText.escaped($0) + "\n" }.joined()
    return table.markdownTable + (lines.isEmpty ? "" : "\n" + lines)
  }

  /// The Markdown table alone, every column shown.
  private var markdownTable: String {
    var out = "| " + columns.map(MarkdownText.escaped).joined(separator: " | ") + " |\n"
    out +=
      "|" + columns.indices.map { numeric.contains($0) ? "---:" : "---" }.joined(separator: "|")
      + "|\n"
    for row in rows {
      out += "| " + row.map { MarkdownText.escaped($0.display) }.joined(separator: " | ") + " |\n"
    }
    return out
  }
}

extension Table {
  /// How a column may leave a table people read (the aligned table and Markdown), declared on
  /// its ``Column`` (``Column/folding(_:)``). CSV and JSON keep every column.
  enum Fold: Sendable, Equatable {
    /// A count that is 0 in most rows (a status that did not run): left out when it is 0 in
    /// every row, named with the others in one note line (`skipped, cancelled: 0 in every
    /// row.`); on a terminal too narrow for the table, left out too, its other values listed
    /// in a note by row (`recursionLimit: 1 in sync-express.`).
    case zero
    /// A value the other columns give, as `how` says (`ok` is `n − failed`): left out on a
    /// terminal too narrow for the table, with a note (`ok = n − failed.`).
    case derived(String)
  }

  /// Rows that need no attention (`diff`'s unchanged, new and gone rows, `check`'s passed and
  /// advisory checks), declared on their row type's ``Columns`` (``Columns/foldingRows(name:_:)``):
  /// on a terminal (``TerminalDisplay/foldsRows``) they leave the table for one note per kind
  /// naming them (`6 unchanged: validate-cart, track-purchase and 4 more (--all-rows shows
  /// them).`).
  struct RowFold: Sendable, Equatable {
    /// The most names a note lists before `and K more`.
    static let namesShown = 8

    /// What folded rows of one kind are, after their count: `check passed` for one,
    /// `checks passed` for more.
    struct Noun: Sendable, Equatable, Hashable {
      let one: String
      let many: String

      init(one: String, many: String) {
        self.one = one
        self.many = many
      }

      /// A noun the same for one row and many (`unchanged`).
      init(_ both: String) { self.init(one: both, many: both) }
    }

    /// The folded rows of one kind, in table order.
    struct Kind: Sendable, Equatable {
      let noun: Noun
      /// The rows, by index, ascending.
      let rows: [Int]
      /// Each row's name in the note, in `rows`' order.
      let names: [String]
    }

    /// The kinds, in the order their first row comes in the table.
    let kinds: [Kind]

    /// The rows that fold.
    var rows: Set<Int> { Set(kinds.flatMap(\.rows)) }

    /// The note of `kind`: its count and noun, its distinct names in order (the first
    /// ``namesShown``, then `and K more`), then which `flag` shows them.
    static func note(_ kind: Kind, shownBy flag: String) -> String {
      var seen: Set<String> = []
      let names = kind.names.filter { seen.insert($0).inserted }
      let shown = names.prefix(namesShown).joined(separator: ", ")
      let more = names.count > namesShown ? " and \(names.count - namesShown) more" : ""
      let noun = kind.rows.count == 1 ? kind.noun.one : kind.noun.many
      let them = kind.rows.count == 1 ? "it" : "them"
      return "\(kind.rows.count) \(noun): \(shown)\(more) (\(flag) shows \(them))."
    }
  }

  /// This table without its foldable rows (``RowFold``), and a note per kind naming them
  /// (``RowFold/note(_:shownBy:)``). Unchanged (no note) when no row folds.
  func rowFolded(shownBy flag: String) -> (Table, [String]) {
    guard let fold = rowFold, !fold.kinds.isEmpty else { return (self, []) }
    let left = fold.rows
    var table = self
    table.rows = rows.indices.filter { !left.contains($0) }.map { rows[$0] }
    table.rowFold = nil
    return (table, fold.kinds.map { RowFold.note($0, shownBy: flag) })
  }

  /// This table without its columns that are 0 in every row (``Fold/zero``, raw value `0`),
  /// and the note naming them (none when nothing folds, or the table has no rows).
  func zeroFolded() -> (Table, [String]) {
    let zero = folds.filter { column, fold in
      fold == .zero && !rows.isEmpty && rows.allSatisfy { $0[column].raw == "0" }
    }.keys.sorted()
    guard !zero.isEmpty else { return (self, []) }
    let names = zero.map { columns[$0] }.joined(separator: ", ")
    return (without(Set(zero)), [names + ": 0 in every row."])
  }

  /// This table without any column that may fold (after ``zeroFolded()``), for a terminal too
  /// narrow for it, and one note per column: a count's values other than 0 by row (named by
  /// the row's first column), a derived value's rule.
  func widthFolded() -> (Table, [String]) {
    let (table, zeroNotes) = zeroFolded()
    let folded = table.folds.keys.sorted()
    guard !folded.isEmpty else { return (table, zeroNotes) }
    var notes: [String] = []
    for column in folded {
      switch table.folds[column] {
      case .derived(let how)?:
        notes.append("\(table.columns[column]) = \(how).")
      case .zero?:
        let values = table.rows.filter { $0[column].raw != "0" }.map { row in
          "\(row[column].display) in \(row[0].display)"
        }
        notes.append("\(table.columns[column]): " + values.joined(separator: ", ") + ".")
      case nil: break
      }
    }
    return (table.without(Set(folded)), notes + zeroNotes)
  }

  /// This table without the columns at `left`, its column sets renumbered.
  private func without(_ left: Set<Int>) -> Table {
    let kept = columns.indices.filter { !left.contains($0) }
    let index = Dictionary(uniqueKeysWithValues: kept.enumerated().map { ($1, $0) })
    var table = Table(
      columns: kept.map { columns[$0] }, numeric: Set(numeric.compactMap { index[$0] }),
      freeText: Set(freeText.compactMap { index[$0] }))
    table.rows = rows.map { row in kept.map { row[$0] } }
    table.folds = Dictionary(
      uniqueKeysWithValues: folds.compactMap { key, fold in index[key].map { ($0, fold) } })
    table.rowFold = rowFold
    return table
  }
}

extension String {
  var trimmingTrailingSpaces: String {
    var text = self
    while text.unicodeScalars.last == " " { text.unicodeScalars.removeLast() }
    return text
  }
}
