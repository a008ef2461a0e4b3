import SleeveQuery

/// A finding as `sleeve lint` lists it: its number in the table (from 1) and the finding.
struct NumberedFinding: Sendable {
  /// Its number among the active findings (the evidence under the table refers to it).
  let number: Int
  /// The finding.
  let finding: LintFinding

  /// `findings` numbered from 1, in order.
  static func numbered(_ findings: [LintFinding]) -> [NumberedFinding] {
    findings.enumerated().map { NumberedFinding(number: $0.offset + 1, finding: $0.element) }
  }

  /// The columns of a lint report, declared once: the aligned and Markdown tables show the
  /// number, severity, check, control, handler, site and message; CSV the raw values of
  /// every column but the number (evidence as `name=value; …`, the suppression's reason and
  /// actor); JSON each finding's members, evidence as a list of `{"name", <kind>: value}`
  /// (the key naming the kind and unit: `count`, `nanoseconds`, `share` or `text`).
  static let columns = Columns<NumberedFinding>([
    Column.count("#", json: nil) { $0.number }.shown(.tablesOnly),
    .json("check") { .string($0.finding.check.id) },
    Column(
      "severity", unit: .text, layout: .text,
      members: [
        .init(key: "severity") { .string($0.finding.severity.rawValue) }
      ]
    ) { row in
      Table.Cell(
        row.finding.severity.rawValue, tone: LintReportText.tone(row.finding.severity))
    },
    .text("check", json: nil) { $0.finding.check.id },
    .json("title") { .string($0.finding.check.title) },
    .text("control", json: "control") { $0.finding.control },
    optional("handler") { $0.finding.handler },
    optional("site") { $0.finding.site },
    Column(
      "other_sites", unit: .text, layout: .text,
      members: [.init(key: "otherSites") { .array($0.finding.otherSites.map(JSONValue.string)) }]
    ) { Table.Cell($0.finding.otherSites.joined(separator: "; ")) }.shown(.csvOnly),
    .text("message", json: "message", layout: .freeText) { $0.finding.message },
    Column(
      "evidence", unit: .text, layout: .text,
      members: [.init(key: "evidence") { .array($0.finding.evidence.map(evidenceJSON)) }]
    ) { row in
      Table.Cell(
        row.finding.evidence.map { "\($0.name)=\(LintReportText.raw($0.value))" }
          .joined(separator: "; "))
    }.shown(.csvOnly),
    Column(
      "sessions", unit: .text, layout: .text,
      members: [.init(key: "sessions") { .array($0.finding.sessions.map(JSONValue.int)) }]
    ) { Table.Cell($0.finding.sessions.map(String.init).joined(separator: " ")) }.shown(.csvOnly),
    Column.text("suppressed", json: nil) { $0.finding.suppression?.reason ?? "" }.shown(.csvOnly),
    Column.text("suppressed_by", json: nil) { $0.finding.suppression?.actor ?? "" }
      .shown(.csvOnly),
    Column.text("explanation", json: "explanation") { $0.finding.check.explanation }
      .shown(.csvOnly),
    .json("suppression") { row in
      row.finding.suppression.map { match in
        .object([("reason", .string(match.reason)), ("actor", .text(match.actor))])
      } ?? .null
    },
  ])

  /// A text that may be missing: `-` in the table, empty in CSV, `null` in JSON.
  private static func optional(
    _ title: String, _ value: @escaping @Sendable (NumberedFinding) -> String?
  ) -> Column<NumberedFinding> {
    Column(title, unit: .text, layout: .text, members: [.init(key: title) { .text(value($0)) }]) {
      row in Table.Cell(value(row) ?? "-", raw: value(row) ?? "")
    }
  }

  /// One item of a finding's evidence as JSON.
  private static func evidenceJSON(_ item: LintEvidence) -> JSONValue {
    let value: (String, JSONValue) =
      switch item.value {
      case .count(let count): ("count", .integer(count))
      case .nanoseconds(let nanoseconds): ("nanoseconds", .int(nanoseconds))
      case .share(let share): ("share", .number(share))
      case .text(let text): ("text", .string(text))
      }
    return .object([("name", .string(item.name)), value])
  }
}
