import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

/// The completion helper keeps its documented bound (`docs/guide/output.md`) on a database
/// another process holds locked: within 2 seconds it prints nothing and exits 0 (it took the
/// 5 s busy timeout each Tab).
@Suite("Completion on a locked database")
struct CompletionLockTests {
  @Test("__complete on a database locked by another process ends quietly within its 2 s")
  func lockedDatabaseEndsWithinTheBound() async throws {
    let source = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let locked = directory.path("locked.sqlite")
    try source.connection.execute("VACUUM INTO '\(locked)'")  // a rollback-journal copy
    let holder = try Connection(path: locked, mode: .readWrite, busyTimeout: .milliseconds(10))
    try holder.execute("PRAGMA journal_mode = DELETE")
    try holder.execute("BEGIN EXCLUSIVE")
    defer { try? holder.execute("ROLLBACK") }
    for kind in ["sessions", "flags"] {
      // Timed on the thread that waits for the child (off the cooperative pool), so a busy
      // pool resuming this test late adds nothing to the measurement.
      let binary = ChildProcess.sleeveBinary
      let (result, timedOut, elapsed) = try await OffThePool.run {
        let start = ContinuousClock.now
        let (result, timedOut) = try ChildProcess.run(
          binary, ["__complete", kind, "--db", locked], timeout: .seconds(20))
        return (result, timedOut, ContinuousClock.now - start)
      }
      #expect(!timedOut)
      #expect(result.status == 0)
      #expect(result.output.isEmpty, "\(result.output)")
      // The helper's own bound is 2 s; the rest is the process starting on a loaded machine.
      #expect(elapsed < .milliseconds(3_500), "\(kind): \(elapsed)")
    }
  }
}
