import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Synchronization
import Testing

/// A database moved over the recorder's file while it records (`mv other.sqlite rec.sqlite`).
@MainActor
@Suite("A file replaced under the recorder", .serialized)
struct ReplacedFileTests {
  /// Writes `other`: three ended sessions of 10 fires each, closed cleanly (no -wal left).
  func writeOther(_ path: String) async throws {
    let recorder = try await Recorder(path: path)
    for index in 0..<3 {
      let session = try await recorder.startSession(name: "other-\(index)")
      let button = Button(name: "o", observer: session)
      button.on(.touchUpInside, id: "o") { _ in }
      for _ in 0..<10 { button.sendActions(for: .touchUpInside) }
      try await session.end()
    }
  }

  /// Checks the moved-in file as a fresh reader sees it: intact, with every session of it.
  func expectIntact(_ path: String, _ moment: String) throws {
    let reader = try Inspector(path: path)
    #expect(try reader.text("PRAGMA integrity_check") == "ok", "\(moment)")
    #expect(
      try reader.rows("SELECT name, status FROM sessions ORDER BY id")
        == ["other-0|ended", "other-1|ended", "other-2|ended"], "\(moment)")
    #expect(try reader.count("fires") == 30, "\(moment)")
    #expect(try reader.count("outcomes") == 30, "\(moment)")
  }

  /// The size of `path`, or `nil` when there is no such file.
  func size(_ path: String) -> Int? {
    (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
  }

  @Test(
    "a database moved over the recorder's file reads intact with all its sessions, while and after the recorder runs"
  )
  func movedInFileStaysIntact() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("rec.sqlite")
    let other = directory.path("other.sqlite")
    try await writeOther(other)
    let errors = Locked<[String]>([])
    do {
      let recorder = try await Recorder(
        path: path,
        options: RecorderOptions(
          flushInterval: .milliseconds(10),
          onWriteError: { error in errors.withLock { $0.append(error.description) } }))
      let session = try await recorder.startSession(name: "recording")
      let button = Button(name: "b", observer: session)
      button.on(.touchUpInside, id: "h") { _ in }
      for _ in 0..<200 { button.sendActions(for: .touchUpInside) }
      try await session.flush()
      #expect(size(path + "-wal") ?? 0 > 0)  // the recorder's log holds frames now

      #expect(rename(other, path) == 0)
      try await Task.sleep(for: .milliseconds(200))  // many flush intervals: it has noticed
      for _ in 0..<100 { button.sendActions(for: .touchUpInside) }
      try await session.flush()
      guard case .failedWrites(let failed, let lastError) = session.status else {
        Issue.record("status \(session.status), expected failedWrites")
        return
      }
      #expect(failed == 200)  // 100 fires and their 100 outcomes, counted, not written
      #expect(lastError.contains("deleted or replaced"))
      // The recorder's leftover log holds nothing a reader could apply to the new file.
      #expect(size(path + "-wal") ?? 0 == 0)
      try expectIntact(path, "while the recorder is alive")
      await #expect(throws: RecorderError.self) { try await session.end() }
    }
    try expectIntact(path, "after the recorder is gone")
    #expect(errors.withLock { !$0.isEmpty && $0.allSatisfy { $0.contains("replaced") } })
  }

  @Test(
    "a database moved in with its own -wal keeps it: the recorder deletes nothing at the path")
  func movedInLogIsNotDeleted() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("rec.sqlite")
    let other = directory.path("other.sqlite")
    // A recorder killed mid-recording leaves `other` with committed rows still in its -wal.
    let child = try ProbeProcess(arguments: [
      "--db", other, "--fires", "0", "--forever", "--report-every", "500",
    ])
    let acknowledgements = try await child.killHard(after: 3, startingWith: "acknowledged ")
    try #require(acknowledgements.count == 3, "the probe ended before it was killed")
    let acknowledged = Int(acknowledgements.last?.dropFirst("acknowledged ".count) ?? "") ?? 0
    try #require(size(other + "-wal") ?? 0 > 0)

    do {
      let recorder = try await Recorder(
        path: path, options: RecorderOptions(flushInterval: .seconds(5)))
      let session = try await recorder.startSession(name: "recording")
      let button = Button(name: "b", observer: session)
      button.on(.touchUpInside, id: "h") { _ in }
      for _ in 0..<100 { button.sendActions(for: .touchUpInside) }
      try await session.flush()
      // Move the database with its log, as one would move a database "with its files".
      for suffix in ["-wal", "-shm", ""] {
        if FileManager.default.fileExists(atPath: other + suffix) {
          #expect(rename(other + suffix, path + suffix) == 0)
        }
      }
      button.sendActions(for: .touchUpInside)
      try await session.flush()  // the writer looks, sees the replacement, lets go
      #expect(session.status != .recording)
    }
    let reader = try Inspector(path: path)
    #expect(try reader.text("PRAGMA integrity_check") == "ok")
    #expect(try reader.text("SELECT name FROM sessions")?.hasPrefix("probe-") == true)
    #expect(try reader.count("fires") >= acknowledged)
  }

  @Test("a recorder killed after its file was replaced leaves no log that damages the new file")
  func killedAfterReplacementLeavesNewFileIntact() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("rec.sqlite")
    let other = directory.path("other.sqlite")
    try await writeOther(other)
    let child = try ProbeProcess(arguments: [
      "--db", path, "--fires", "0", "--forever", "--report-every", "200",
    ])
    // No close, no exit handler: only what happened before the kill counts.
    let renamed = Mutex(Int32(-1))
    let acknowledgements = try await child.killHard(after: 3, startingWith: "acknowledged ") {
      renamed.withLock { $0 = rename(other, path) }
      usleep(300_000)  // the probe flushes every 10 ms
    }
    try #require(acknowledgements.count == 3, "the probe ended before it was killed")
    #expect(renamed.withLock { $0 } == 0)
    #expect(size(path + "-wal") ?? 0 == 0)
    try expectIntact(path, "after the kill")
  }
}
