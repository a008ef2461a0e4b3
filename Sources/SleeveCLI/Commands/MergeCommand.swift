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
    arguments: ["out", "input"], repeatsLastArgument: true, completingArguments: .files,
    options: [includeUnterminated.spec, SharedOptions.format.spec] + TerminalDisplay.options)

  /// `--include-unterminated`.
  static let includeUnterminated = Flag(
    "include-unterminated", help: "Also copy sessions that have not ended (running or crashed).")

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let out = arguments.arguments[0]
    let inputs = Array(arguments.arguments.dropFirst())
    let includeUnterminated = arguments.has(Self.includeUnterminated)
    let console = context.console
    // Every input is checked before the output is created or written.
    for input in inputs { try requireReadable(input) }
    let created = try DatabaseFile.inspect(out) == .missing
    var store: StoreWriter? = try StoreWriter(path: out)
    var reports: [SessionMerger.Report] = []
    let progress = ProgressLine(console: console)
    defer { progress.finish() }
    do {
      for (index, input) in inputs.enumerated() {
        let report = try store!.merge(path: input, includeUnterminated: includeUnterminated) {
          step in
          progress.update(
            "Merging '\(input)' (\(index + 1) of \(inputs.count)): session \(step.session) "
              + "of \(step.sessions), \(Int(step.fraction * 100))%")
        }
        reports.append(report)
      }
      progress.finish()
    } catch {
      progress.finish()
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
    context.print(
      AnswerView(
        header: [], fields: [("out", .string(out))], rowsKey: "inputs",
        columns: SessionMerger.Report.columns, rows: reports))
  }
}
