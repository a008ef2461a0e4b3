import SleeveQuery

/// `sleeve errors`: error rates per group.
enum ErrorsCommand: Command {
  static let spec = CommandSpec(
    name: "errors",
    abstract: "Error rates per group: failed / (ok + failed), with n and a Wilson 95% interval.",
    discussion: "Outcomes that did not run (skipped, ownerReleased, cancelled, recursionLimit)\n"
      + "are counted in their own columns, not in the rate. The table names a column\n"
      + "that is 0 in every row in a note under it; a terminal too narrow for the table\n"
      + "gets ok (n - failed) and the other statuses as notes too. JSON and CSV keep\n"
      + "every column.",
    options: SharedOptions.common + SharedOptions.filters + [SharedOptions.by]
      + SharedOptions.method)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let filter = try SharedOptions.filter(arguments, context: context)
    let grouping = try SharedOptions.grouping(arguments, context: context)
    let answer = try context.openDatabase().errorRateAnswer(matching: filter, by: grouping)
    context.noteUnmatched(answer.selection)
    context.print(
      AnswerView(
        header: [
          "\(SharedOptions.sessionsLine(answer.selection.sessions)). Error rate = "
            + "\(answer.method)."
            + (answer.selection.plan.prunedSentence.map { " " + $0 } ?? "")
        ],
        fields: [("method", .string(answer.method)), ("by", .string(grouping.rawValue))]
          + answer.selection.plan.jsonFields + [
            ("sessions", .array(answer.selection.sessions.map { .int($0.id) }))
          ],
        rowsKey: "groups", columns: ErrorRateRow.columns(by: grouping), rows: answer.rows))
    return .success
  }
}
