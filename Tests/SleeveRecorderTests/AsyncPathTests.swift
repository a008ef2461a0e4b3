import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// Async callers get async paths: in async code, `Recorder(path:)` and `startSession` resolve to
/// their `async` overloads, which wait without blocking a thread, so many tests starting
/// sessions at once never starve the cooperative pool.
@Suite("Async paths")
struct AsyncPathTests {
  @Test("sessions awaited by many tasks while the file is locked leave the pool free to run")
  func startSessionLeavesThePoolFree() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("async.sqlite")
    let recorder = try await Recorder(
      path: path,
      options: RecorderOptions(
        busyTimeout: .milliseconds(50), waitTimeout: WaitBounds.hang,
        retryTimeout: WaitBounds.unreached))
    let blocker = try Connection(path: path)
    try blocker.execute("BEGIN IMMEDIATE")
    // More waiting tasks than the pool has threads: blocking waits would take them all.
    let waiting = 4 * max(ProcessInfo.processInfo.activeProcessorCount, 1)
    let progress = Locked(0)
    let stop = Locked(false)
    try await withThrowingTaskGroup(of: Int64.self) { group in
      for index in 0..<waiting {
        group.addTask { try await recorder.startSession(name: "s\(index)").rowID }
      }
      let counter = Task {
        while !stop.withLock({ $0 }) {
          progress.withLock { $0 += 1 }
          await Task.yield()
        }
      }
      try await Task.sleep(for: .milliseconds(300))
      let whileLocked = progress.withLock { $0 }
      try blocker.execute("COMMIT")
      var rows: Set<Int64> = []
      for try await row in group { rows.insert(row) }
      stop.withLock { $0 = true }
      await counter.value
      #expect(whileLocked > 0, "no other task ran while \(waiting) session starts waited")
      #expect(rows.count == waiting)
    }
  }

  @Test("the async Recorder(path:) reports a refused file as the synchronous one does")
  func openReportsErrors() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("short.sqlite")
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
    await #expect(throws: RecorderError.self) { try await Recorder(path: path) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([1, 2, 3]))
  }
}
