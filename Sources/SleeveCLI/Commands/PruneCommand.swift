import SleeveQuery
import SleeveStore

/// `sleeve prune`: delete the raw fires, outcomes and interactions of old ended sessions,
/// keeping their summaries, and give the space back (`RawRowPruner`).
enum PruneCommand: Command {
  static let spec = CommandSpec(
    name: "prune",
    abstract: "Delete the raw rows of old sessions, keeping their summaries; reclaim the space.",
    discussion: """
      Takes the selected ended sessions that ended before --raw-older-than (an age like 30d or
      12h, or a date), or all but the newest --keep-last by end time, and deletes their raw
      fires, outcomes and interactions. Their summaries, counts, failure kinds, handlers,
      flags and context stay: errors and latency still answer for them (from summaries),
      sessions lists them as raw pruned, export writes their metrics but refuses their raw
      rows (exit 69). A session without summaries yet is summarized first, in the transaction
      that prunes it. Each session is pruned in one transaction, so a crash leaves every
      session pruned or untouched; then VACUUM rebuilds the file in place (crash-safe through
      its log; it needs free disk about twice the size of the pruned file), unless a session
      is still recording into it, in which case the freed pages are reused by new rows and a
      later prune reclaims them. Sessions that have not ended are never pruned. --dry-run
      shows what would go and changes nothing. Selects every session unless --session or a
      filter narrows it. On a shared history (--db postgresql://...), --older-than deletes
      whole sessions (rows and summaries) that ended before the age, in batches of 100
      sessions, each one transaction.
      """,
    options: SharedOptions.common + SessionTerms.optionsDefaultingToAll.map(\.spec) + [
      rawOlderThan.spec, keepLast.spec, dryRun.spec, olderThan.spec,
    ])

  /// `--raw-older-than <age>`: an age or a date, as `--since` reads it.
  static let rawOlderThan = Option(
    "raw-older-than", value: "age",
    help: "Prune sessions that ended before this age (30d, 12h) or date (2026-11-01)."
  ) { text throws(ValueError) in try ValueParsers.since(text) }
  /// `--keep-last <n>`.
  static let keepLast = Option(
    "keep-last", value: "n", help: "Prune all but the newest n ended sessions."
  ) { text throws(ValueError) in
    try ValueParsers.count(text, minimum: 0, maximum: SessionTerms.maximumLast)
  }
  /// `--dry-run`.
  static let dryRun = Flag("dry-run", help: "Show what would be pruned; change nothing.")

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    if let history = context.history {
      return try prune(history, arguments, context: context)
    }
    if arguments.isGiven(olderThan.spec) {
      throw UsageError(
        "--older-than deletes whole sessions from a shared history (--db postgresql://...); "
          + "a file keeps its sessions' summaries: use --raw-older-than", command: spec.name)
    }
    let policy = try policy(arguments, context: context)
    let filter = try SharedOptions.filter(arguments, context: context, defaultSession: .all)
    // The selection is read first, so one that matches nothing never upgrades the file.
    let sessions = try context.openDatabase().sessions(matching: filter).map(\.id)
    if arguments.has(Self.dryRun) {
      // A read-only connection: the file (and a file from before summaries) stays as it is.
      let connection = try SleeveDatabase.openForReading(path: context.databasePath)
      let plan = try RawRowPruner.plan(sessions: sessions, policy: policy, connection: connection)
      show(plan: plan, result: nil, context: context)
      return .success
    }
    let store = try StoreWriter(path: context.databasePath)
    let plan = try store.planPrune(sessions: sessions, policy: policy)
    let progress = ProgressLine(console: context.console)
    // Cleared on the way out too: an error line then starts a row of its own.
    defer { progress.finish() }
    let result = try store.prune(plan) { done in
      let count = plan.targets.count
      // VACUUM follows the last session: it can take longest.
      progress.update(
        done < count
          ? "Pruning session \(done) of \(count)"
          : "Pruned \(count) sessions; reclaiming the space", always: done == count)
    }
    progress.finish()
    show(plan: plan, result: result, context: context)
    return .success
  }

  /// `--raw-older-than` or `--keep-last`: exactly one of them.
  static func policy(_ arguments: ParsedArguments, context: CommandContext) throws
    -> RetentionPolicy
  {
    let cutoff = try context.value(rawOlderThan, in: arguments)
    let keep = try context.value(keepLast, in: arguments)
    switch (cutoff, keep) {
    case (let cutoff?, nil): return .endedBefore(unixNanoseconds: cutoff)
    case (nil, let keep?): return .keepLast(keep)
    case (.some, .some):
      throw UsageError(
        "--raw-older-than and --keep-last choose sessions two ways; give one of them",
        command: spec.name)
    case (nil, nil):
      throw UsageError(
        "Give --raw-older-than <age> (e.g. 30d) or --keep-last <n>: which sessions to prune",
        command: spec.name)
    }
  }

  private static func show(
    plan: RawRowPruner.Plan, result: RawRowPruner.Result?, context: CommandContext
  ) {
    let targets = result?.pruned ?? plan.targets
    let summarizedFirst = Set(result?.summarizedFirst ?? plan.summarizedFirst)
    let lines = headerLines(plan: plan, result: result)
    let ids = { (list: [Int64]) in JSONValue.array(list.map { .int($0) }) }
    let before = result?.before ?? plan.footprint
    let rows = targets.map {
      PrunedSession(target: $0, summarizedFirst: summarizedFirst.contains($0.session))
    }
    var members: [(String, JSONValue)] = [
      ("rows", .int(targets.reduce(0) { $0 &+ $1.rows })),
      ("estimatedBytes", .int(plan.estimatedBytes)),
      ("bytesBefore", .int(before.bytes)),
      ("bytesPerOutcomeBefore", .number(before.bytesPerOutcome)),
    ]
    if let result {
      members += [
        ("bytesAfter", .int(result.after.bytes)),
        ("bytesPerOutcomeAfter", .number(result.after.bytesPerOutcome)),
        ("reclaim", .string(reclaimName(result.reclaim))),
        ("recording", ids(recording(result.reclaim))),
        ("changedSincePlan", ids(result.changedSincePlan)),
      ]
    }
    members += [
      ("notEnded", ids(plan.notEnded)), ("alreadyPruned", ids(plan.alreadyPruned)),
      ("kept", ids(plan.kept)),
    ]
    context.print(
      AnswerView(
        header: lines, fields: [("dryRun", .bool(result == nil))], rowsKey: "sessions",
        trailingFields: members, columns: PrunedSession.columns, rows: rows))
  }

  /// What the run did (or would do), in a few lines above the table.
  static func headerLines(plan: RawRowPruner.Plan, result: RawRowPruner.Result?) -> [String] {
    func sessions(_ count: Int) -> String { "\(count) session\(count == 1 ? "" : "s")" }
    func perOutcome(_ footprint: DatabaseFootprint) -> String {
      footprint.bytesPerOutcome.map { Formatting.fixed($0, digits: 1) } ?? "-"
    }
    var lines: [String] = []
    guard let result else {
      let first = plan.summarizedFirst.count
      lines.append(
        "Would prune \(sessions(plan.targets.count)): \(plan.rows) raw rows, about "
          + "\(Formatting.bytes(plan.estimatedBytes)) of \(Formatting.bytes(plan.footprint.bytes))"
          + " (\(perOutcome(plan.footprint)) bytes per outcome now)"
          + (first > 0 ? "; \(sessions(first)) would be summarized first" : "") + ".")
      lines.append("Nothing was changed (--dry-run).")
      return lines + leftAlone(plan)
    }
    let first = result.summarizedFirst.count
    lines.append(
      "Pruned \(sessions(result.pruned.count)): deleted \(result.rowsDeleted) raw rows"
        + (first > 0 ? "; \(sessions(first)) summarized first" : "") + ".")
    lines.append(
      "File: \(Formatting.bytes(result.before.bytes)) before, "
        + "\(Formatting.bytes(result.after.bytes)) after; bytes per outcome "
        + "\(perOutcome(result.before)) before, \(perOutcome(result.after)) after.")
    if case .skippedWhileRecording(let recording) = result.reclaim {
      lines.append(
        "Space not reclaimed: \(QueryError.sessionList(recording)) "
          + "\(recording.count == 1 ? "is" : "are") recording into the file (the freed pages "
          + "are reused); prune again once they end.")
    }
    if !result.changedSincePlan.isEmpty {
      lines.append(
        "Left alone: \(QueryError.sessionList(result.changedSincePlan)) changed meanwhile "
          + "(pruned by another run).")
    }
    return lines + leftAlone(plan)
  }

  private static func leftAlone(_ plan: RawRowPruner.Plan) -> [String] {
    var parts: [String] = []
    if !plan.kept.isEmpty { parts.append("\(plan.kept.count) kept by the policy") }
    if !plan.alreadyPruned.isEmpty { parts.append("\(plan.alreadyPruned.count) already pruned") }
    if !plan.notEnded.isEmpty { parts.append("\(plan.notEnded.count) not ended") }
    return parts.isEmpty ? [] : ["Selected but not pruned: " + parts.joined(separator: ", ") + "."]
  }

  static func reclaimName(_ reclaim: RawRowPruner.Reclaim) -> String {
    switch reclaim {
    case .vacuumed: "vacuumed"
    case .nothingToReclaim: "nothing-to-reclaim"
    case .skippedWhileRecording: "skipped-while-recording"
    case .notAsked: "not-asked"
    }
  }

  private static func recording(_ reclaim: RawRowPruner.Reclaim) -> [Int64] {
    if case .skippedWhileRecording(let sessions) = reclaim { return sessions }
    return []
  }
}
