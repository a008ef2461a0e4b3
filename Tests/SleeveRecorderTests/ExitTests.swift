import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

@MainActor
@Suite("Exit and final accounting", .serialized)
struct ExitTests {
  @Test("a process exiting with a live recorder leaves a closed, checkpointed file: no -wal")
  func exitWithALiveRecorderCheckpoints() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("script.sqlite")
    let result = try await ChildProcess.run(
      ProbeProcess.binary.path, ["--db", path, "--fires", "5000", "--leave-open"])
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("leaving"))
    let wal = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int
    #expect(wal ?? 0 == 0, "-wal left with \(wal ?? 0) bytes")
    // With no log left, every row is in the main file.
    let reader = try Inspector(path: path)
    #expect(try reader.count("fires") == 5_000)
    #expect(try reader.count("outcomes") == 5_000)
    #expect(try reader.text("PRAGMA integrity_check") == "ok")
  }

  @Test("after end(), status keeps the session's dropped and failed events")
  func endedStatusKeepsTheAccounting() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("ended.sqlite")
    let recorder = try await Recorder(
      path: path,
      options: RecorderOptions(
        whenFull: .drop, bufferCapacity: 64, flushCount: 64, retryTimeout: WaitBounds.unreached))
    let session = try await recorder.startSession(name: "lossy")
    let button = Button(name: "b", observer: session)
    button.on(.touchUpInside, id: "h") { _ in }
    let blocker = try Connection(path: path)
    try blocker.execute("BEGIN IMMEDIATE")  // the buffer fills while the writer waits
    for _ in 0..<1_000 { button.sendActions(for: .touchUpInside) }
    try blocker.execute("COMMIT")
    try await session.end()
    let dropped = session.droppedEvents
    #expect(dropped > 0)
    #expect(
      session.status == .endedWithLosses(droppedEvents: dropped, failedEvents: 0, lastError: nil))

    let clean = try await recorder.startSession(name: "clean")
    try await clean.end()
    #expect(clean.status == .ended)
  }
}
