import Testing

@testable import SleeveCLI

/// A column declared foldable (``Table/Fold``) leaves the tables people read, never CSV or
/// JSON: a count 0 in every row always, with one note line naming them; on a terminal too
/// narrow for the table, the other foldable columns too, each with a note.
@Suite("Column folds")
struct ColumnFoldTests {
  struct Row: Sendable {
    let key: String
    let n: Int
    let ok: Int
    let skipped: Int
    let cancelled: Int
    let limit: Int
  }

  static let columns = Columns<Row>([
    .text("handler", json: "key") { $0.key },
    .count("n", json: "n") { $0.n },
    .count("ok", json: "ok") { $0.ok }.folding(.derived("n - failed")),
    .count("skipped", json: "skipped") { $0.skipped }.folding(.zero),
    .count("cancelled", json: "cancelled") { $0.cancelled }.folding(.zero),
    .count("recursionLimit", json: "recursionLimit") { $0.limit }.folding(.zero),
  ])

  static let rows = [
    Row(key: "a-rather-long-handler-name", n: 10, ok: 9, skipped: 0, cancelled: 0, limit: 0),
    Row(key: "sync-express", n: 4, ok: 4, skipped: 0, cancelled: 0, limit: 1),
  ]

  static func render(_ columns: Columns<Row>, width: Int?) -> String {
    let display = TerminalDisplay(width: width, layout: .fit, colored: false)
    return TableLayout.render(columns.table(rows), header: [], display: display)
  }

  @Test("columns 0 in every row leave the table for one note line naming them")
  func zeroColumnsFold() {
    let out = Self.render(Self.columns, width: nil)
    let lines = out.split(separator: "\n").map(String.init)
    #expect(lines[0] == "handler                      n  ok  recursionLimit", "\(out)")
    #expect(lines.last == "skipped, cancelled: 0 in every row.", "\(out)")
    #expect(lines.count == 4, "\(out)")
  }

  @Test("Markdown folds them the same way; CSV and JSON keep every column")
  func machineFormatsKeepEveryColumn() {
    let markdown = Self.columns.table(Self.rows, for: .markdown).markdown
    #expect(!markdown.contains("| skipped"), "\(markdown)")
    #expect(markdown.hasSuffix("\nskipped, cancelled: 0 in every row.\n"), "\(markdown)")
    let csv = Self.columns.table(Self.rows, for: .csv).csv
    #expect(csv.hasPrefix("handler,n,ok,skipped,cancelled,recursionLimit\n"), "\(csv)")
    #expect(csv.contains("sync-express,4,4,0,0,1\n"), "\(csv)")
    guard case .array(let objects) = Self.columns.json(Self.rows),
      case .object(let members) = objects.first
    else {
      Issue.record("not an array of objects")
      return
    }
    #expect(members.map(\.0) == ["key", "n", "ok", "skipped", "cancelled", "recursionLimit"])
  }

  @Test("a table without rows keeps its columns: nothing is 0 in every row of none")
  func emptyTableKeepsColumns() {
    let display = TerminalDisplay(width: nil, layout: .fit, colored: false)
    let out = TableLayout.render(Self.columns.table([]), header: [], display: display)
    #expect(out == "handler  n  ok  skipped  cancelled  recursionLimit\n", "\(out)")
  }

  @Test("on a narrow terminal the other foldable columns fold too, each with its note")
  func narrowTerminalFoldsTheRest() {
    let wide = Self.render(Self.columns, width: 120)
    #expect(wide.contains("recursionLimit") && wide.contains("  ok  "), "\(wide)")
    #expect(!wide.contains("ok = n - failed"), "\(wide)")
    let narrow = Self.render(Self.columns, width: 40)
    let lines = narrow.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    #expect(
      lines == [
        "handler                      n", "a-rather-long-handler-name  10",
        "sync-express                 4", "", "ok = n - failed.",
        "recursionLimit: 1 in sync-express.",
        "skipped, cancelled: 0 in every row.", "",
      ], "\(narrow)")
  }

  @Test("the fold is part of the declaration: a column read through a part or retitled keeps it")
  func foldSurvivesComposition() {
    struct Whole: Sendable { let row: Row }
    let columns = Columns<Whole>(
      Self.columns.over { $0.row }.map { $0.titled("x " + ($0.title ?? "")) })
    let table = columns.table(Self.rows.map(Whole.init))
    #expect(table.folds == [2: .derived("n - failed"), 3: .zero, 4: .zero, 5: .zero])
    #expect(columns.table(Self.rows.map(Whole.init), for: .csv).folds.isEmpty)
  }
}
