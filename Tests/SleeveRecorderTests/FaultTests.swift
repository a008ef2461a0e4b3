import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

@MainActor
@Suite("Faults")
struct FaultTests {
  @Test("a full disk fails writes: the callback fires, dispatch goes on, every event is counted")
  func fullDiskIsReportedAndCounted() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("full.sqlite")
    let errors = Locked<[RecorderError]>([])
    // A few pages past the migrated schema, whatever its size: the disk fills mid-run.
    let schemaPages =
      try SleeveDatabase.openForWriting(path: path)
      .scalarInt("PRAGMA page_count") ?? 0
    let recorder = try await Recorder(
      path: path,
      options: RecorderOptions(
        whenFull: .block, bufferCapacity: 512, flushCount: 64,
        pragmas: ["max_page_count = \(schemaPages + 4)"],
        onWriteError: { error in errors.withLock { $0.append(error) } }))
    let session = try await recorder.startSession(name: "full")
    let button = Button(name: "b")
    var handled = 0
    button.on(.touchUpInside, id: "h") { _ in handled += 1 }
    session.attach(button)
    let fires = 20_000
    for _ in 0..<fires { button.sendActions(for: .touchUpInside) }
    try await session.flush()

    #expect(handled == fires)
    let recorded = errors.withLock { $0 }
    #expect(!recorded.isEmpty)
    #expect(recorded.allSatisfy { $0.sqliteError?.primaryCode == SQLiteError.full })
    guard case .failedWrites(let failed, let lastError) = session.status else {
      Issue.record("status is \(session.status), expected failedWrites")
      return
    }
    #expect(lastError.contains("full"))
    let reader = try Inspector(path: path)
    let written =
      try reader.count("fires") + reader.count("outcomes") + reader.count("controls")
      + reader.count("registrations")
    // Every event the session produced is written, failed or dropped: none vanish. A batch
    // that fails with the control's or the handler's own event has that row rewritten from
    // its description by the next fire that needs it, while the event stays counted failed:
    // the count can err on the side of loss by those two rows, never the other way.
    let accounted = written + failed + session.droppedEvents
    #expect((2 * fires + 2)...(2 * fires + 4) ~= accounted, "\(accounted) for \(2 * fires + 2)")
    #expect(try reader.text("PRAGMA integrity_check") == "ok")
    // The file says what the process knew: the counters reach the session's row.
    try? await session.end()
    let columns = try Inspector(path: path).rows(
      "SELECT failed_events, write_errors > 0, dropped_events FROM sessions")
    #expect(columns == ["\(failed)|1|\(session.droppedEvents)"], "\(columns)")
  }

  /// Capacity 64 hands the stage over at every fire's end; 4,096 every 64 records (about 13
  /// fires of 5 records), which are then dropped together.
  @Test(
    "a full buffer with policy drop counts exactly what it drops, whatever the hand-off size",
    arguments: [64, 4_096])
  func dropPolicyCountsExactly(capacity: Int) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("drop.sqlite")
    let recorder = try await Recorder(
      path: path,
      options: RecorderOptions(
        whenFull: .drop, bufferCapacity: capacity, flushCount: capacity,
        retryTimeout: WaitBounds.unreached))
    let session = try await recorder.startSession(name: "drop")
    let button = Button(name: "b")
    for index in 0..<4 { button.on(.touchUpInside, id: "h\(index)") { _ in } }
    session.attach(button)
    let blocker = try Connection(path: path)
    try blocker.execute("BEGIN IMMEDIATE")  // the writer waits on the lock; the buffer fills
    let fires = 5_000
    for _ in 0..<fires { button.sendActions(for: .touchUpInside) }
    try blocker.execute("COMMIT")
    // Whole fires only: every fire row written has all four of its outcomes.
    try await session.end()
    let reader = try Inspector(path: path)
    let fireRows = try reader.count("fires")
    let outcomeRows = try reader.count("outcomes")
    #expect(session.droppedEvents > 0)
    #expect(fireRows + outcomeRows + session.droppedEvents == fires * 5)
    #expect(try reader.int("SELECT dropped_events FROM sessions") == Int64(session.droppedEvents))
    // No outcome is left without its fire.
    #expect(
      try reader.count("outcomes", where: "fire_id NOT IN (SELECT id FROM fires)") == 0)
    #expect(outcomeRows == 4 * fireRows)
  }

  @Test("a database from a newer Sleeve is refused by the recorder with a clear error")
  func newerSchemaIsRefusedByRecorder() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("newer.sqlite")
    try SleeveDatabase.openForWriting(path: path).execute(
      "INSERT INTO schema_migrations VALUES ('0999_future', 0)")
    let error = try #require(throws: RecorderError.self) { try Recorder(path: path) }
    #expect(error.description.contains("newer Sleeve"))
    #expect(error.description.contains("0999_future"))
  }

  @Test("a file that is not a database is refused by the recorder, unchanged")
  func notADatabaseIsRefusedByRecorder() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("text.sqlite")
    let text = Data(String(repeating: "this is not a database\n", count: 200).utf8)
    try text.write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: RecorderError.self) { try Recorder(path: path) }
    #expect(error.description.contains("is not a SQLite database"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == text)
  }
}
