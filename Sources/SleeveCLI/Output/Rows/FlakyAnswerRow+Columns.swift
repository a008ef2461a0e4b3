import SleeveQuery

extension FlakyAnswer.Row {
  /// The columns of `sleeve flaky`: the handler, its verdict, the runs that disagreed and the
  /// invocations that failed (``FlakyText``), its sessions and when it was seen, whether it is
  /// quarantined, its failure kinds (the first three) and its site. JSON has every figure in
  /// full: the shares, the counts, each session, each failure kind and each disagreeing group.
  static let columns = Columns<FlakyAnswer.Row>([
    .text("control", json: nil) { $0.finding.control ?? GroupTally.unknownKey },
    .json("control") { .text($0.finding.control) },
    .text("handler", json: "handler") { $0.finding.handler },
    .json("site") { .text($0.finding.site) },
    .text("verdict", json: "verdict") { $0.finding.verdict.rawValue },
    Column(
      "runs disagreed on", unit: .proportion, layout: .text,
      members: [.init(key: "flakeRate") { .number($0.finding.flakeRate) }]
    ) {
      Table.Cell(FlakyText.disagreement($0.finding), raw: Formatting.raw($0.finding.flakeRate))
    },
    .json("judgedGroups") { .integer($0.finding.judgedGroups) },
    .json("ran") { .integer($0.finding.ran) },
    .json("failed") { .integer($0.finding.failed) },
    Column(
      "invocations failed", unit: .proportion, layout: .text,
      members: [.init(key: "errorRate") { .number($0.finding.errorRate) }]
    ) {
      Table.Cell(
        FlakyText.failedInvocations($0.finding), raw: Formatting.raw($0.finding.errorRate))
    },
    Column("disagreeing runs", unit: .text, layout: .freeText, members: []) {
      Table.Cell(
        FlakyText.disagreeingRuns($0.finding),
        raw: FlakyText.disagreeingRuns($0.finding, limit: .max))
    },
    Column(
      "sessions", unit: .text, layout: .freeText,
      members: [.init(key: "sessions") { .array($0.finding.sessions.map(JSONValue.int)) }]
    ) { row in
      let sessions = row.finding.sessions
      return Table.Cell(
        sessions.prefix(12).map(String.init).joined(separator: ", ")
          + (sessions.count > 12 ? " and \(sessions.count - 12) more" : ""),
        raw: sessions.map(String.init).joined(separator: " "))
    },
    .json("failingSessions") { .array($0.finding.failingSessions.map(JSONValue.int)) },
    seen("first seen", json: "firstSeen") { $0.finding.firstSeenUnixNanoseconds },
    seen("last seen", json: "lastSeen") { $0.finding.lastSeenUnixNanoseconds },
    Column(
      "quarantined", unit: .text, layout: .text,
      members: [.init(key: "quarantined") { .bool($0.quarantined) }]
    ) { Table.Cell($0.quarantined ? "yes" : "no") },
    Column(
      "failure kinds", unit: .text, layout: .freeText,
      members: [
        .init(key: "failureKinds") { row in
          .array(
            row.finding.failureKindsByCount.map { kind, count in
              .object([
                ("type", .string(kind.type)), ("pattern", .string(kind.pattern)),
                ("count", .integer(count)),
              ])
            })
        }
      ]
    ) { row in
      let kinds = row.finding.failureKindsByCount
      let shown = kinds.prefix(3).map { "\($0.kind.display) (\($0.count))" }
      return Table.Cell(
        kinds.isEmpty
          ? "-"
          : shown.joined(separator: "; ")
            + (kinds.count > 3 ? "; and \(kinds.count - 3) more" : ""),
        raw: kinds.map { "\($0.kind.display) (\($0.count))" }.joined(separator: "; "))
    },
    .json("flakyGroups") { row in
      .array(
        row.finding.flakyGroups.map { group in
          .object([
            ("commit", .string(group.group.commit)), ("test", .text(group.group.test)),
            ("sessions", .array(group.sessions.map(JSONValue.int))),
            ("failingSessions", .array(group.failingSessions.map(JSONValue.int))),
          ])
        })
    },
    Column("site", unit: .text, layout: .text, members: []) {
      Table.Cell($0.finding.site ?? "-", raw: $0.finding.site ?? "")
    },
  ])

  /// When the handler was first or last seen: the cell shows the time (`-` when unknown) over
  /// its nanoseconds; JSON has the time under `json` and the nanoseconds under `jsonUnixNs`.
  private static func seen(
    _ title: String, json: String, _ value: @escaping @Sendable (FlakyAnswer.Row) -> Int64?
  ) -> Column<FlakyAnswer.Row> {
    Column(
      title, unit: .text, layout: .text,
      members: [
        .init(key: json) { .text(value($0).map { Formatting.timestamp(unixNanoseconds: $0) }) },
        .init(key: json + "UnixNs") { .integer(value($0)) },
      ]
    ) { row in
      guard let time = value(row) else { return Table.Cell("-", raw: "") }
      return Table.Cell(Formatting.timestamp(unixNanoseconds: time), raw: String(time))
    }
  }
}
