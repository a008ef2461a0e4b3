import Testing

@testable import SleeveCLI

/// A row type's columns are declared once, and every format is derived from that declaration:
/// the table's header, alignment and cells, the CSV's raw values, the Markdown table and the
/// JSON members.
@Suite("Column declarations")
struct ColumnDeclarationTests {
  struct Row: Sendable {
    let name: String
    let count: Int
    let nanoseconds: Int64?
    let share: Double?
  }

  static let columns = Columns<Row>([
    .text("name", json: "key") { $0.name },
    .count("n", json: "n") { $0.count },
    .duration("p99", json: "p99") { $0.nanoseconds },
    .proportion("share", json: nil) { $0.share },
    .json("extra") { .string("only in JSON " + $0.name) },
  ])

  static let rows = [
    Row(name: "pay", count: 3, nanoseconds: 1_200_000, share: 0.25),
    Row(name: "cancel", count: 0, nanoseconds: nil, share: nil),
  ]

  @Test("the table has the titled columns in order, numeric ones right-aligned")
  func tableFromDeclaration() {
    let table = Self.columns.table(Self.rows)
    #expect(table.columns == ["name", "n", "p99", "share"])
    #expect(table.numeric == [1, 2, 3])
    #expect(table.freeText.isEmpty)
    #expect(
      table.rows.map { $0.map(\.display) } == [
        ["pay", "3", Formatting.duration(1_200_000), Formatting.percent(0.25)],
        ["cancel", "0", Formatting.duration(nil), Formatting.percent(nil)],
      ])
  }

  @Test("CSV carries each column's raw value: nanoseconds and fractions as numbers, nil empty")
  func csvFromDeclaration() {
    #expect(
      Self.columns.table(Self.rows).csv
        == "name,n,p99,share\npay,3,1200000,0.25\ncancel,0,,\n")
  }

  @Test("JSON has every column's members in order: table-only columns none, JSON-only ones theirs")
  func jsonFromDeclaration() {
    let json = Self.columns.json(Self.rows)
    #expect(
      json
        == .array([
          .object([
            ("key", .string("pay")), ("n", .int(3)), ("p99", .int(1_200_000)),
            ("extra", .string("only in JSON pay")),
          ]),
          .object([
            ("key", .string("cancel")), ("n", .int(0)), ("p99", .null),
            ("extra", .string("only in JSON cancel")),
          ]),
        ]))
  }

  @Test("an answer view puts its fields around the rows in the order declared")
  func viewDocument() {
    let view = AnswerView(
      header: ["Sessions 1"], fields: [("method", .string("m"))], rowsKey: "groups",
      trailingFields: [("total", .int(2))], columns: Self.columns, rows: Self.rows)
    guard case .object(let members) = view.json else {
      Issue.record("the document is not an object")
      return
    }
    #expect(members.map(\.0) == ["method", "groups", "total"])
    #expect(view.table.rows.count == 2)
  }
}
