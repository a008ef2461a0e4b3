import SleeveTestSupport

/// `sleeve demo --history`, recorded once per test process and shared by every suite that
/// reads it (`demo --history`, lint, report and chart tests, and the gate page's pull-request
/// section): fifteen runs of the checkout demo are seconds of work, and one recording is enough
/// for all of them. Readers that write copy the file first (``DemoHistoryTests/record()``).
///
/// It is recorded exactly as "Gate a pull request against main" (`docs/guide/gate.md`) runs it:
/// the built `sleeve` with the arguments ``arguments`` and the database named by `SLEEVE_DB`, so
/// that section's test can take this recording as its first command's run.
actor RecordedHistory {
  static let shared = RecordedHistory()
  /// The gate page's command: `sleeve demo --history`, at the default number of fires.
  static let arguments = ["demo", "--history"]
  private let directory = TemporaryDirectory()
  private var recording: Task<(path: String, result: CLIRunner.Result), Never>?

  /// The database's path and how the recording ended (exit status and what it printed).
  func run() async -> (path: String, result: CLIRunner.Result) {
    if recording == nil {
      let path = directory.path("history.sqlite")
      recording = Task {
        // In a child process: the demo's recording runs on the main actor, which in the test
        // process is one thread shared by every @MainActor suite (sixty of them); the child's
        // own main thread records beside them. A `sleeve` that cannot start is a failed run.
        let result =
          (try? await CLIRunner.runChild(Self.arguments, environment: ["SLEEVE_DB": path]))
          ?? CLIRunner.Result(exit: -1, out: "", error: "the sleeve binary did not start")
        return (path, result)
      }
    }
    return await recording!.value
  }

  /// The database's path and what the demo printed.
  func recorded() async -> (path: String, out: String) {
    let (path, result) = await run()
    return (path, result.out)
  }
}
