import Testing

@testable import SleeveCLI

/// Columns compose: a part's columns read through the whole that holds it, retitled, laid out
/// again or kept out of JSON; JSON members may be keyed by the row; and a view's JSON document
/// may give its rows otherwise than under one key.
@Suite("Column composition")
struct ColumnCompositionTests {
  struct Part: Sendable {
    let n: Int
    let share: Double?
  }

  struct Whole: Sendable {
    let name: String?
    let part: Part
  }

  static let partColumns = Columns<Part>([
    .count("n", json: "n") { $0.n },
    .proportion("share", json: "share") { $0.share },
  ])

  static let wholes = [
    Whole(name: "pay", part: Part(n: 3, share: 0.5)),
    Whole(name: nil, part: Part(n: 0, share: nil)),
  ]

  @Test("a part's columns over the whole keep their cells, layout and JSON members")
  func overKeepsCellsAndMembers() {
    let columns = Columns<Whole>(Self.partColumns.over { $0.part })
    let table = columns.table(Self.wholes)
    #expect(table.columns == ["n", "share"])
    #expect(table.numeric == [0, 1])
    #expect(table.rows.map { $0.map(\.display) } == [["3", "50.00%"], ["0", "-"]])
    #expect(
      columns.json(Self.wholes)
        == .array([
          .object([("n", .int(3)), ("share", .double(0.5))]),
          .object([("n", .int(0)), ("share", .null)]),
        ]))
  }

  @Test("retitled table-only columns leave JSON to a nested member")
  func tableOnlyAndTitled() {
    let columns = Columns<Whole>(
      Self.partColumns.over { $0.part }.map { $0.titled("on " + ($0.title ?? "")).tableOnly }
        + [.json("on") { Self.partColumns.object($0.part) }])
    #expect(columns.table(Self.wholes).columns == ["on n", "on share"])
    #expect(
      columns.json([Self.wholes[0]])
        == .array([.object([("on", .object([("n", .int(3)), ("share", .double(0.5))]))])]))
  }

  @Test("a column laid out again may fold into notes")
  func laidOutAsFreeText() {
    let columns = Columns<Whole>([
      .text("name", json: nil) { $0.name ?? "-" }.laidOut(.freeText),
      .count("n", json: nil) { $0.part.n },
    ])
    let table = columns.table(Self.wholes)
    #expect(table.freeText == [0])
    #expect(table.numeric == [1])
  }

  @Test("row-keyed JSON members: each row gets the keys its own value calls for")
  func rowKeyedMembers() {
    let columns = Columns<Whole>([
      .json { whole in
        whole.name.map { [("name", .string($0))] } ?? [("unnamed", .bool(true))]
      },
      .json("n") { .int(Int64($0.part.n)) },
    ])
    #expect(
      columns.json(Self.wholes)
        == .array([
          .object([("name", .string("pay")), ("n", .int(3))]),
          .object([("unnamed", .bool(true)), ("n", .int(0))]),
        ]))
  }

  @Test("a view with its own document lists the rows in the table only")
  func documentView() {
    let view = AnswerView(
      header: ["two rows"], document: [("first", Self.partColumns.json([Self.wholes[0].part]))],
      columns: Self.partColumns, rows: Self.wholes.map(\.part))
    #expect(view.table.rows.count == 2)
    #expect(
      view.json
        == .object([("first", .array([.object([("n", .int(3)), ("share", .double(0.5))])]))]))
  }
}
