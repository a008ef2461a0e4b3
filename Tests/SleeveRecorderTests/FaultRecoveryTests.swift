import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

@MainActor
@Suite("Faults: recovery and accounting")
struct FaultRecoveryTests {
  /// Records `fires` fires of a one-handler button; returns how many times the handler ran.
  func fire(_ button: Button, times fires: Int) -> Int {
    var ran = 0
    for _ in 0..<fires {
      button.sendActions(for: .touchUpInside)
      ran += 1
    }
    return ran
  }

  @Test("a new database file is created owner-only (0600), and so are its WAL files")
  func newFilesAreOwnerOnly() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("private.sqlite")
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "private")
    try await session.flush()
    for file in [path, path + "-wal", path + "-shm"] {
      let attributes = try FileManager.default.attributesOfItem(atPath: file)
      let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
      #expect(mode == 0o600, "\(file) has mode \(String(mode, radix: 8))")
    }
    try await session.end()
  }

  @Test("a lock held past the busy timeout delays a batch, reported; nothing is lost")
  func lockPastTimeoutThenResume() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("locked.sqlite")
    let errors = Locked<[RecorderError]>([])
    let recorder = try await Recorder(
      path: path,
      options: RecorderOptions(
        // The lock is held for 300 ms of the test's time, which a loaded machine can stretch
        // to a minute: the batch must wait it out, never be given up.
        whenFull: .block, busyTimeout: .milliseconds(50), waitTimeout: WaitBounds.hang,
        retryTimeout: WaitBounds.unreached,
        onWriteError: { error in errors.withLock { $0.append(error) } }))
    let session = try await recorder.startSession(name: "locked")
    let button = Button(name: "b", observer: session)
    button.on(.touchUpInside) { _ in }
    let blocker = try Connection(path: path)
    try blocker.execute("BEGIN IMMEDIATE")
    #expect(fire(button, times: 100) == 100)
    // Hold the lock through several busy timeouts, then let go.
    try await Task.sleep(for: .milliseconds(300))
    try blocker.execute("COMMIT")
    #expect(fire(button, times: 100) == 100)
    try await session.end()
    let reported = errors.withLock { $0 }
    #expect(!reported.isEmpty)
    #expect(reported.allSatisfy { $0.sqliteError?.primaryCode == SQLiteError.busy })
    #expect(reported.allSatisfy { if case .writeRetrying = $0 { true } else { false } })
    #expect(session.status == .ended)
    let reader = try Inspector(path: path)
    #expect(try reader.count("fires") == 200)
    #expect(try reader.count("outcomes") == 200)
    #expect(try reader.int("SELECT failed_events FROM sessions") == 0)
  }

  @Test("a read-only database: startSession throws a read-only error, reported to onWriteError")
  func readOnlyDatabase() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("readonly.sqlite")
    let errors = Locked(0)
    // query_only makes the connection read-only even for root, who ignores file modes.
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "before")
    try await session.end()
    let readOnly = try await Recorder(
      path: path,
      options: RecorderOptions(
        pragmas: ["query_only = 1"], onWriteError: { _ in errors.withLock { $0 += 1 } }))
    let error = try #require(throws: RecorderError.self) {
      try readOnly.startSession(name: "never")
    }
    #expect(error.description.contains("readonly"), "\(error)")
    #expect(errors.withLock { $0 } == 1)
    let reader = try Connection(path: path, mode: .readOnly)
    #expect(try reader.scalarInt("SELECT count(*) FROM sessions") == 1)
  }

  @Test(
    "a database deleted under a running recorder: events counted as failed, never written blindly")
  func deletedUnderTheRecorder() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("deleted.sqlite")
    let errors = Locked<[String]>([])
    let recorder = try await Recorder(
      path: path,
      options: RecorderOptions(onWriteError: { error in
        errors.withLock { $0.append(error.description) }
      }))
    let session = try await recorder.startSession(name: "deleted")
    let button = Button(name: "b", observer: session)
    button.on(.touchUpInside) { _ in }
    #expect(fire(button, times: 10) == 10)
    try await session.flush()
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
    #expect(fire(button, times: 50) == 50)
    try await session.flush()
    guard case .failedWrites(let failed, let lastError) = session.status else {
      Issue.record("status \(session.status)")
      return
    }
    #expect(failed == 100)
    #expect(lastError.contains("deleted or replaced"))
    #expect(errors.withLock { $0.allSatisfy { $0.contains("deleted or replaced") } })
    #expect(!FileManager.default.fileExists(atPath: path))
  }

  @Test("a path whose directory does not exist is refused at once with a clear error")
  func missingDirectoryIsRefused() throws {
    let error = try #require(throws: RecorderError.self) {
      try Recorder(path: "/nonexistent/directory/sleeve.sqlite")
    }
    #expect(
      error.description.hasPrefix("cannot record into '/nonexistent/directory/sleeve.sqlite'"))
    #expect(error.sqliteError?.primaryCode == SQLiteError.cantOpen)
  }

  @Test("a fire storm of nested handlers hits the depth limit and is recorded as such")
  func fireStormIsRecorded() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("storm.sqlite")
    let session = try await Recorder(path: path).startSession(name: "storm")
    let echo = Button(name: "echo", observer: session)
    echo.on(.touchUpInside, id: "echo") { button in button.sendActions(for: .touchUpInside) }
    echo.sendActions(for: .touchUpInside)
    try await session.end()
    let reader = try Inspector(path: path)
    let limit = Control.nestingLimit
    #expect(try reader.count("fires") == limit + 1)
    #expect(try reader.count("outcomes", where: "status = 0") == limit)
    #expect(try reader.count("outcomes", where: "status = 5") == 1)
    #expect(try reader.int("SELECT max(depth) FROM fires") == Int64(limit + 1))
  }
}
