import SleeveStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sleeve merge`: copy sessions from other databases into one.
enum MergeCommand: Command {
  static let spec = CommandSpec(
    name: "merge", abstract: "Copy sessions from other Sleeve databases into one.",
    discussion: """
      Copies every ended session of each input (controls, handlers, fires, outcomes, flags and
      flag history) into <out>, created when missing. Sessions are keyed by UUID: one already
      in <out> is skipped, so merging a file again adds nothing and a merge that stopped
      part-way can be run again. Sessions still recording are left out unless
      --include-unterminated is given, so inputs can be merged while runners record into them;
      a session copied before it ended is copied again in full (refreshed) by a later merge.
      A newer input is refused (exit 65); inputs before it are kept.
      """,
    arguments: ["out", "input"], repeatsLastArgument: true,
    options: [
      OptionSpec(
        "include-unterminated",
        help: "Also copy sessions that have not ended (running or crashed)."),
      SharedOptions.format.spec,
    ] + TerminalDisplay.options)

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let out = arguments.arguments[0]
    let inputs = Array(arguments.arguments.dropFirst())
    let includeUnterminated = arguments.has("include-unterminated")
    let console = context.console
    // Every input is checked before the output is created or written.
    for input in inputs { try requireReadable(input) }
    let created = try DatabaseFile.inspect(out) == .missing
    var store: StoreWriter? = try StoreWriter(path: out)
    var reports: [SessionMerger.Report] = []
    do {
      for (index, input) in inputs.enumerated() {
        let report = try store!.merge(path: input, includeUnterminated: includeUnterminated) {
          step in
          guard console.errorIsTerminal else { return }
          console.error(
            "\rMerging '\(TerminalText.escaped(input))' (\(index + 1) of \(inputs.count)): session \(step.session) "
              + "of \(step.sessions), \(Int(step.fraction * 100))%  ")
          if step.session == step.sessions && step.fraction == 1 { console.error("\n") }
        }
        reports.append(report)
      }
    } catch {
      // What was merged before the failure stays merged: say so, then report the failure.
      if !reports.isEmpty { printReports(reports, out: out, context: context) }
      if created && reports.isEmpty {
        // Nothing was merged into the file this command created: leave nothing behind.
        store = nil
        for suffix in ["", "-wal", "-shm"] { unlink(out + suffix) }
      }
      throw error
    }
    printReports(reports, out: out, context: context)
    let notEnded = reports.reduce(0) { $0 + $1.notEnded }
    if notEnded > 0 {
      console.error(
        "Note: \(notEnded) session(s) had not ended and were left out; merge again once they "
          + "end, or pass --include-unterminated.\n")
    }
    return .success
  }

  /// Refuses an input that is missing, empty or not a regular SQLite file, naming it.
  private static func requireReadable(_ input: String) throws {
    switch try DatabaseFile.inspect(input) {
    case .missing: throw StoreError.unreadable(path: input, reason: "no such file")
    case .empty: throw StoreError.noSessionsYet(path: input)
    case .sqlite: return
    }
  }

  private static func printReports(
    _ reports: [SessionMerger.Report], out: String, context: CommandContext
  ) {
    var table = Table(
      columns: [
        "input", "copied", "refreshed", "already_present", "not_ended", "outcomes", "flag_changes",
      ], numeric: [1, 2, 3, 4, 5, 6])
    for report in reports {
      table.rows.append([
        Table.Cell(report.path), Table.Cell(String(report.copied.count)),
        Table.Cell(String(report.refreshed.count)), Table.Cell(String(report.alreadyPresent)),
        Table.Cell(String(report.notEnded)),
        Table.Cell(String(report.outcomes)), Table.Cell(String(report.flagChanges)),
      ])
    }
    let json = JSONValue.object([
      ("out", .string(out)),
      (
        "inputs",
        .array(
          reports.map { report in
            .object([
              ("path", .string(report.path)),
              ("copied", .array(report.copied.map { .string($0) })),
              ("refreshed", .array(report.refreshed.map { .string($0) })),
              ("alreadyPresent", .int(Int64(report.alreadyPresent))),
              ("notEnded", .int(Int64(report.notEnded))),
              ("outcomes", .int(Int64(report.outcomes))),
              ("flagChanges", .int(Int64(report.flagChanges))),
            ])
          })
      ),
    ])
    context.print(table: table, json: json)
  }
}
