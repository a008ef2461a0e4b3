import Dispatch
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

@MainActor
@Suite("Durability")
struct DurabilityTests {
  @Test("strict: a fire's rows are visible to another connection as soon as sendActions returns")
  func strictRowsAreVisibleWhenSendActionsReturns() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("strict.sqlite")
    let recorder = try await Recorder(
      path: path, options: RecorderOptions(durability: .strict, flushInterval: .seconds(30)))
    let session = try await recorder.startSession(name: "strict")
    let button = Button(name: "b")
    button.on(.touchUpInside, id: "h") { _ in }
    session.attach(button)
    let reader = try Inspector(path: path)
    for expected in 1...5 {
      button.sendActions(for: .touchUpInside)
      #expect(try reader.count("fires") == expected)
      #expect(try reader.count("outcomes") == expected)
    }
    try await session.end()
  }

  @Test("batched: every row is present after end()")
  func batchedRowsArePresentAfterEnd() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("batched.sqlite")
    let recorder = try await Recorder(
      path: path,
      options: RecorderOptions(whenFull: .block, bufferCapacity: 256, flushCount: 100))
    let session = try await recorder.startSession(name: "batched")
    let toggle = Switch(name: "s")
    for index in 0..<3 { toggle.on(.valueChanged, id: "h\(index)") { _ in } }
    session.attach(toggle)
    for _ in 0..<2_000 { toggle.toggle() }
    try await session.end()
    let reader = try Inspector(path: path)
    #expect(try reader.count("fires") == 2_000)
    #expect(try reader.count("outcomes") == 6_000)
    #expect(try reader.text("SELECT status FROM sessions") == "ended")
    #expect(session.droppedEvents == 0)
    #expect(session.status == .ended)
  }

  @Test("flush() writes everything recorded so far without ending the session")
  func flushWritesWithoutEnding() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("flush.sqlite")
    let recorder = try await Recorder(
      path: path, options: RecorderOptions(flushInterval: .seconds(30)))
    let session = try await recorder.startSession(name: "flush")
    let button = Button(name: "b")
    button.on(.touchUpInside) { _ in }
    session.attach(button)
    button.sendActions(for: .touchUpInside)
    try await session.flush()
    let reader = try Inspector(path: path)
    #expect(try reader.count("outcomes") == 1)
    #expect(try reader.text("SELECT status FROM sessions") == "running")
    try await session.end()
    #expect(try reader.text("SELECT status FROM sessions") == "ended")
  }

  @Test("sessions started at once from four threads, their fires interleaved, keep all their rows")
  func parallelSessionsKeepAllTheirRows() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("parallel.sqlite")
    let recorder = try await Recorder(path: path, options: RecorderOptions(whenFull: .block))
    let started = Locked<[Int: RecordingSession]>([:])
    let failures = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 4) { index in
      do {
        let session = try recorder.startSession(name: "s\(index)")
        started.withLock { $0[index] = session }
      } catch {
        failures.withLock { $0.append("\(error)") }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty)
    let sessions = try (0..<4).map { index in
      try #require(started.withLock { $0[index] })
    }
    let buttons = sessions.map { session in
      let button = Button(name: "b", observer: session)
      button.on(.touchUpInside) { _ in }
      return button
    }
    for round in 0..<1_000 { buttons[round % 4].sendActions(for: .touchUpInside) }
    for session in sessions { try await session.end() }
    let reader = try Inspector(path: path)
    #expect(
      try reader.rows("SELECT id >> 32, count(*) FROM outcomes GROUP BY 1 ORDER BY 1")
        == sessions.map(\.rowID).sorted().map { "\($0)|250" })
    #expect(Set(try reader.rows("SELECT uuid FROM sessions")).count == 4)
  }
}
