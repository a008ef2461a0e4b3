import SleeveQuery

extension SessionListing.Row {
  /// The status as `sleeve sessions` shows it: a pruned session says so (`ended, raw
  /// pruned`), since its fires and outcomes are its summary's counts.
  var status: String { session.status + (rawPruned ? ", raw pruned" : "") }

  /// The columns of `sleeve sessions` for `listing`: the session's figures; where it ran
  /// (branch, commit shown short, test) when any listed session knows it, so files from
  /// before 0003 and sessions recorded outside CI keep the table as it was; and where its
  /// deliveries stand once any session was pushed. The uuid, and the last of the columns
  /// that only some listings show, may fold into notes. JSON has every member whatever the
  /// table shows.
  static func columns(for listing: SessionListing) -> Columns<SessionListing.Row> {
    let context: [(String, @Sendable (SessionContext) -> String?)] = [
      ("branch", { $0.run.branch }), ("commit", { $0.run.commit }), ("test", { $0.test }),
    ]
    var optional: [Column<SessionListing.Row>] =
      context.filter { _, field in listing.rows.contains { field($0.session.context) != nil } }
      .map { name, field in
        Column(name, unit: .text, layout: .text, members: []) { row in
          let value = field(row.session.context)
          return Table.Cell(
            (name == "commit" ? value.map(CommitID.short) : value) ?? "-", raw: value ?? "")
        }
      }
    if listing.anyDelivered {
      optional.append(.text("delivered", json: nil) { DeliveryText.summary($0.deliveries) })
    }
    if let last = optional.popLast() { optional.append(last.laidOut(.freeText)) }
    return Columns(
      [
        .count("id", json: "id") { $0.session.id },
        .json("uuid") { .string($0.session.uuid) },
        .text("name", json: "name") { $0.session.name },
        .text("uuid", json: nil, layout: .freeText) { $0.session.uuid },
        .text("started", json: "started") {
          Formatting.timestamp(unixNanoseconds: $0.session.startedUnixNanoseconds)
        },
        .json("startedUnixNanoseconds") { .int($0.session.startedUnixNanoseconds) },
        .number("duration", json: "durationSeconds", { $0.session.durationSeconds }) {
          Formatting.fixed($0, digits: 1) + " s"
        },
        .text("status", json: "status") { $0.status },
        .json("liveness") { .string($0.session.liveness.rawValue) },
        .json("writeErrors") { .integer($0.session.writeErrors) },
        .count("fires", json: "fires") { $0.session.fires },
        .count("outcomes", json: "outcomes") { $0.session.outcomes },
        .count("dropped", json: "droppedEvents") { $0.session.droppedEvents },
        .count("failed", json: "failedEvents") { $0.session.failedEvents },
        .json("host") { .text($0.session.metadata["host"]) },
        .json("runtime") { .text($0.session.metadata["runtime"]) },
        .json("sleeveVersion") { .text($0.session.metadata["sleeveVersion"]) },
        .json("sqliteVersion") { .text($0.session.metadata["sqliteVersion"]) },
        .json("context") { row in
          let context = row.session.context
          return .object(
            context.knownFields.map { ($0.name, .string($0.value)) }
              + (context.testTags.isEmpty
                ? [] : [("testTags", .array(context.testTags.map { .string($0) }))]))
        },
        .json("rawPruned") { .bool($0.rawPruned) },
        .json("deliveries") { .array($0.deliveries.map(DeliveryText.json)) },
      ] + optional)
  }
}
