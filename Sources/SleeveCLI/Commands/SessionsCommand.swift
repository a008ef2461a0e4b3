import SleeveQuery

/// `sleeve sessions`: the recorded sessions.
enum SessionsCommand: Command {
  static let spec = CommandSpec(
    name: "sessions", abstract: "List recorded sessions with their status and counts.",
    discussion: """
      Lists every session unless --session narrows it (default here: all). A session whose raw
      rows were pruned (sleeve prune) is 'ended, raw pruned', with the fires and outcomes its
      summary counted. Once any session was pushed (sleeve export --endpoint, or a recorder's
      push at session end), a 'delivered' column says where each signal stands: delivered,
      partial (the push stopped short, or waits for the session to end) or failed, per
      endpoint.
      """,
    options: SharedOptions.common + SessionTerms.optionsDefaultingToAll.map(\.spec))

  /// The first 12 scalars of a commit id, as `git log --oneline` shortens them.
  static func shortCommit(_ commit: String) -> String {
    String(String.UnicodeScalarView(commit.unicodeScalars.prefix(12)))
  }

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context, defaultSession: .all)
    let database = try context.openDatabase()
    let (sessions, pruned, deliveries, unowned) = try database.snapshot {
      let sessions = try database.sessions(matching: filter)
      return (
        sessions, Set(try database.rawPrunedSessions(among: sessions)),
        try database.deliveryStates(of: sessions), try database.unownedRows()
      )
    }
    context.warnUnowned(unowned)
    // A pruned session's fires and outcomes are its summary's counts, and its status says so.
    func status(_ session: SessionSummary) -> String {
      session.status + (pruned.contains(session.id) ? ", raw pruned" : "")
    }
    // Where sessions ran is shown when any of them knows it (files from before 0003, and
    // sessions recorded outside CI, keep the table as it was).
    // Each column's field; the commit is shown short, and CSV (the raw form) holds all of it.
    let contextColumns: [(String, (SessionContext) -> String?)] = [
      ("branch", \.run.branch), ("commit", \.run.commit), ("test", \.test),
    ].filter { _, field in sessions.contains { field($0.context) != nil } }
    let showsDeliveries = !deliveries.isEmpty
    let columns =
      [
        "id", "name", "uuid", "started", "duration", "status", "fires", "outcomes", "dropped",
        "failed",
      ] + contextColumns.map(\.0) + (showsDeliveries ? ["delivered"] : [])
    var table = Table(
      columns: columns, numeric: [0, 4, 6, 7, 8, 9],
      freeText: Set([2] + (contextColumns.isEmpty && !showsDeliveries ? [] : [columns.count - 1])))
    for session in sessions {
      table.rows.append(
        [
          Table.Cell(String(session.id)), Table.Cell(session.name), Table.Cell(session.uuid),
          Table.Cell(Formatting.timestamp(unixNanoseconds: session.startedUnixNanoseconds)),
          Table.Cell(
            Formatting.fixed(session.durationSeconds, digits: 1) + " s",
            raw: Formatting.raw(session.durationSeconds)),
          Table.Cell(status(session)), Table.Cell(String(session.fires)),
          Table.Cell(String(session.outcomes)), Table.Cell(String(session.droppedEvents)),
          Table.Cell(String(session.failedEvents)),
        ]
          + contextColumns.map { name, field in
            let value = field(session.context)
            return Table.Cell(
              (name == "commit" ? value.map(Self.shortCommit) : value) ?? "-", raw: value ?? "")
          }
          + (showsDeliveries
            ? [Table.Cell(DeliveryText.summary(deliveries[session.id] ?? []))] : []))
    }
    let json = JSONValue.object([
      (
        "sessions",
        .array(
          sessions.map { session in
            .object([
              ("id", .int(session.id)), ("uuid", .string(session.uuid)),
              ("name", .string(session.name)),
              (
                "started",
                .string(Formatting.timestamp(unixNanoseconds: session.startedUnixNanoseconds))
              ),
              ("startedUnixNanoseconds", .int(session.startedUnixNanoseconds)),
              ("durationSeconds", .number(session.durationSeconds)),
              ("status", .string(status(session))),
              ("liveness", .string(session.liveness.rawValue)),
              ("writeErrors", .integer(session.writeErrors)),
              ("fires", .integer(session.fires)), ("outcomes", .integer(session.outcomes)),
              ("droppedEvents", .integer(session.droppedEvents)),
              ("failedEvents", .integer(session.failedEvents)),
              ("host", .text(session.metadata["host"])),
              ("runtime", .text(session.metadata["runtime"])),
              ("sleeveVersion", .text(session.metadata["sleeveVersion"])),
              ("sqliteVersion", .text(session.metadata["sqliteVersion"])),
              (
                "context",
                .object(
                  session.context.knownFields.map { ($0.name, .string($0.value)) }
                    + (session.context.testTags.isEmpty
                      ? [] : [("testTags", .array(session.context.testTags.map { .string($0) }))]))
              ),
              ("rawPruned", .bool(pruned.contains(session.id))),
              ("deliveries", .array((deliveries[session.id] ?? []).map(DeliveryText.json))),
            ])
          })
      ),
      (
        "unownedRows",
        .object(unowned.counts.map { ($0.table, .int($0.rows)) })
      ),
    ])
    context.print(table: table, json: json)
    return .success
  }
}
