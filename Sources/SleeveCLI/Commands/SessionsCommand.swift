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

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context, defaultSession: .all)
    let listing = try context.openDatabase().sessionListing(matching: filter)
    context.warnUnowned(listing.unowned)
    context.print(
      AnswerView(
        header: [], fields: [], rowsKey: "sessions",
        trailingFields: [
          ("unownedRows", .object(listing.unowned.counts.map { ($0.table, .int($0.rows)) }))
        ], columns: SessionListing.Row.columns(for: listing), rows: listing.rows))
    return .success
  }
}
