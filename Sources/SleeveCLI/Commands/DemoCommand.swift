/// `sleeve demo`: record a simulated checkout session and show what to query next.
enum DemoCommand: Command {
  static let spec = CommandSpec(
    name: "demo",
    abstract: "Record a simulated checkout session into the database, then show what to try.",
    discussion: """
      Records through the real recorder: buttons, a switch, a text field, a flaky handler,
      a slow async handler, a handler whose owner is released, and the flag new-checkout
      rolled back halfway, as replayed traffic (programmatic fires); then one user's visit
      by hand with one instance of each pitfall sleeve lint finds. --fires scales the
      traffic (10 million works; progress shows on a terminal). --history records nine runs
      instead: eight of a checkout test on main across four commits (one handler flaky),
      then one on a branch with a slower, more failing handler, a new failure type and the
      visit's pitfalls, with CI context filled in: ready for diff, flaky, check and lint.
      Handlers' durations are simulated from a fixed seed, not measured, so every figure
      is the same on any machine; the sessions are tagged simulated-durations.
      """,
    options: [SharedOptions.db.spec, fires.spec, history.spec])

  /// `--fires <n>`: 1 to 100 million.
  static let fires = Option(
    "fires", value: "n", help: "Replayed taps, toggles and typing (default: 2000)."
  ) { text throws(ValueError) in try ValueParsers.count(text, minimum: 1, maximum: 100_000_000) }
  /// `--history`.
  static let history = Flag(
    "history", help: "Record a small history of runs on main and one on a branch.")

  static func run(_ arguments: ParsedArguments, context: CommandContext) async throws -> ExitCode {
    let fires = try context.value(Self.fires, in: arguments) ?? 2_000
    let console = context.console
    if arguments.has(Self.history) { return try await history(fires: fires, context: context) }
    let showProgress = console.errorIsTerminal && fires >= 100_000
    let summary = try await MainActor.run {
      CheckoutDemo(fires: fires) { done, total in
        guard showProgress else { return }
        console.error("\rRecording: \(done * 100 / total)% (\(done) of \(total) replayed)")
        if done == total { console.error("\n") }
      }
    }.run(path: context.databasePath)
    let shownPath = TerminalText.escaped(context.databasePath)
    let db = context.databasePath == "sleeve.sqlite" ? "" : " --db \(shownPath)"
    let sleeve = sleeveCommand(context)
    console.out(
      """
      Recorded session \(summary.sessionID) '\(summary.sessionName)': \(summary.replayed) \
      replayed taps, toggles and typing on a checkout screen, then one visit by hand with \
      each pitfall sleeve lint finds, into \(shownPath) (durations simulated: the same on \
      any machine).

      Try next:
        \(sleeve) sessions\(db)
        \(sleeve) errors\(db) --by handler
        \(sleeve) latency\(db) --by handler --percentiles 50,95,99
        \(sleeve) flags\(db)
        \(sleeve) check\(db) --max-error-rate 5% --max-p99 10ms
        \(sleeve) lint\(db)

      """)
    return .success
  }

  /// How the hints start: `sleeve` when the one on `PATH` is this one, else `swift run sleeve`.
  private static func sleeveCommand(_ context: CommandContext) -> String {
    SleeveInvocation.command(
      running: SleeveInvocation.running(), path: context.console.environment["PATH"])
  }

  /// Records ``DemoHistory``'s runs and says what to try on them.
  private static func history(fires: Int, context: CommandContext) async throws -> ExitCode {
    var ids: [Int64] = []
    let runs = DemoHistory.runs()
    for run in runs {
      let summary = try await MainActor.run {
        CheckoutDemo(fires: fires, run: run) { _, _ in }
      }.run(path: context.databasePath)
      ids.append(summary.sessionID)
    }
    let shownPath = TerminalText.escaped(context.databasePath)
    let db = context.databasePath == "sleeve.sqlite" ? "" : " --db \(shownPath)"
    let sleeve = sleeveCommand(context)
    let baseline = "'branch=\(DemoHistory.mainBranch),last=20'"
    let main = runs.filter { $0.context?.branch == DemoHistory.mainBranch }
    let commits = Set(main.compactMap { $0.context?.commit }).count
    context.console.out(
      """
      Recorded sessions \(ids.first ?? 0)-\(ids.last ?? 0): \(main.count) runs of CheckoutTests \
      on \(DemoHistory.mainBranch) across \(commits) commits (charge-card got slower at \
      \(DemoHistory.slowdownCommit)), then 1 on \(DemoHistory.candidateBranch), \(fires) \
      replayed taps, toggles and typing each (the branch's run with the visit's pitfalls), into \
      \(shownPath) (durations simulated: the same on any machine).

      Try next:
        \(sleeve) sessions\(db) --session all
        \(sleeve) changes\(db) --branch \(DemoHistory.mainBranch)
        \(sleeve) diff\(db) --baseline \(baseline)
        \(sleeve) flaky\(db)
        \(sleeve) check\(db) --baseline \(baseline)
        \(sleeve) lint\(db) --branch \(DemoHistory.candidateBranch)

      """)
    return .success
  }
}
