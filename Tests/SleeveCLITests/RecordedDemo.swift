import SleeveTestSupport

/// `sleeve demo --fires 200`, recorded once per test process in a child process, for tests
/// that only read what it recorded (a refused option never opens the file for writing): a demo
/// is a second of main-actor work and a person's pauses, which one recording pays once.
actor RecordedDemo {
  static let shared = RecordedDemo()
  private let directory = TemporaryDirectory()
  private var recording: Task<(path: String, exit: Int32), Never>?

  /// The database's path and the demo's exit status (-1: the binary did not start).
  func recorded() async -> (path: String, exit: Int32) {
    if recording == nil {
      let path = directory.path("demo.sqlite")
      recording = Task {
        let result = try? await CLIRunner.runChild(["demo", "--db", path, "--fires", "200"])
        return (path, result?.exit ?? -1)
      }
    }
    return await recording!.value
  }
}
