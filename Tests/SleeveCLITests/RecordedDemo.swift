import SleeveTestSupport

/// `sleeve demo`, as README's first command runs it (2,000 fires), recorded once per test
/// process in a child process, for tests that only read what it recorded (a refused option
/// never opens the file for writing; readers that write copy it first). Its durations are
/// simulated, so its figures are the same in every test process on any machine.
actor RecordedDemo {
  static let shared = RecordedDemo()
  private let directory = TemporaryDirectory()
  private var recording: Task<(path: String, exit: Int32), Never>?

  /// The database's path and the demo's exit status (-1: the binary did not start).
  func recorded() async -> (path: String, exit: Int32) {
    if recording == nil {
      let path = directory.path("demo.sqlite")
      recording = Task {
        let result = try? await CLIRunner.runChild(["demo", "--db", path])
        return (path, result?.exit ?? -1)
      }
    }
    return await recording!.value
  }
}
