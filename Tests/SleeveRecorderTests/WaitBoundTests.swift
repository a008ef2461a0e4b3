import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// Another connection holds the write lock (`BEGIN IMMEDIATE`) longer than the recorder's
/// `waitTimeout`.
@MainActor
@Suite("Every wait is bounded", .serialized, .timeLimit(.minutes(10)))
struct WaitBoundTests {
  static let waitTimeout = Duration.milliseconds(400)
  /// What a bounded call may take: the timeout plus `WaitBounds.hang` of scheduling slack (the
  /// awaiting test resumes only when the cooperative pool gets to it). The lock is held until
  /// the test lets go, so a call without a bound never returns at all: the suite's time limit
  /// ends it. The writer's own `retryTimeout` is `WaitBounds.unreached`, so a call that waited
  /// for it instead of `waitTimeout` would reach the time limit too.
  static let bound = waitTimeout + WaitBounds.hang

  /// The options of a recorder whose lock waits are under test.
  static func options(
    whenFull: RecorderOptions.WhenFull = .drop, bufferCapacity: Int = 65_536,
    flushCount: Int = 4_096
  ) -> RecorderOptions {
    RecorderOptions(
      whenFull: whenFull, bufferCapacity: bufferCapacity, flushCount: flushCount,
      flushInterval: .milliseconds(10), busyTimeout: .milliseconds(50),
      waitTimeout: waitTimeout, retryTimeout: WaitBounds.unreached)
  }

  /// Runs `body` and returns how long it took.
  func timed(_ body: () async throws -> Void) async rethrows -> Duration {
    let start = ContinuousClock.now
    try await body()
    return ContinuousClock.now - start
  }

  @Test(
    "a lock held past waitTimeout: startSession, flush and end throw in time, strict fires count failed events, recording resumes after"
  )
  func lockPastTheWaitTimeout() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("held.sqlite")
    let recorder = try await Recorder(path: path, options: Self.options())
    let strict = try await recorder.startSession(name: "strict", durability: .strict)
    let batched = try await recorder.startSession(name: "batched")
    let strictButton = Button(name: "s", observer: strict)
    strictButton.on(.touchUpInside, id: "s") { _ in }
    let batchedButton = Button(name: "b", observer: batched)
    batchedButton.on(.touchUpInside, id: "b") { _ in }
    // One fire each first, so the controls' descriptions are written before the lock.
    strictButton.sendActions(for: .touchUpInside)
    batchedButton.sendActions(for: .touchUpInside)
    try await strict.flush()
    try await batched.flush()

    let blocker = try Connection(path: path)
    try blocker.execute("BEGIN IMMEDIATE")
    var refused: RecorderError?
    let starting = await timed {
      refused = #expect(throws: RecorderError.self) { try recorder.startSession(name: "late") }
    }
    #expect(starting < Self.bound, "startSession took \(starting)")
    #expect(refused?.isTimeout == true)
    #expect(refused?.sqliteError?.primaryCode == SQLiteError.busy)
    #expect(refused?.description.contains("waitTimeout") == true)

    for fire in 1...3 {
      let firing = await timed { strictButton.sendActions(for: .touchUpInside) }
      #expect(firing < Self.bound, "a strict fire took \(firing)")
      // A wait that timed out is final: the fire returns with its events counted, whichever
      // of the writer and the waiter reached the deadline first (WaitVerdictTests forces both).
      #expect(
        strict.status.failedEvents == 2 * fire,
        "fire \(fire) and its outcome not written: \(strict.status)")
    }

    for _ in 0..<10 { batchedButton.sendActions(for: .touchUpInside) }
    let flushing = await timed {
      let error = await #expect(throws: RecorderError.self) { try await batched.flush() }
      #expect(error?.isTimeout == true)
    }
    #expect(flushing < Self.bound, "flush took \(flushing)")
    let ending = await timed {
      let error = await #expect(throws: RecorderError.self) { try await batched.end() }
      #expect(error?.isTimeout == true)
    }
    #expect(ending < Self.bound, "end took \(ending)")

    try blocker.execute("COMMIT")
    // Recording resumes with the next batch: strict fires commit again, sessions start.
    let reader = try Inspector(path: path)
    for _ in 0..<2 { strictButton.sendActions(for: .touchUpInside) }
    #expect(
      try reader.count("fires", where: "id >> \(RowID.numberBits) = \(strict.rowID)") == 1 + 2)
    let after = try await recorder.startSession(name: "after")
    try await after.end()
    try await strict.end()
    #expect(
      strict.status
        == .endedWithLosses(
          droppedEvents: 0, failedEvents: 6, lastError: strict.status.lastError))
    #expect(try reader.int("SELECT failed_events FROM sessions WHERE name = 'strict'") == 6)
    // The batched session's end timed out, which is final: it is never written later, so the
    // session stays running.
    let rows = try reader.rows("SELECT name, status FROM sessions ORDER BY id")
    #expect(rows == ["strict|ended", "batched|running", "after|ended"])
  }

  @Test("policy block: a firing thread waits for room at most waitTimeout, then drops, counted")
  func blockPolicyWaitIsBounded() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("block.sqlite")
    let recorder = try await Recorder(
      path: path, options: Self.options(whenFull: .block, bufferCapacity: 16, flushCount: 16))
    let session = try await recorder.startSession(name: "block")
    let button = Button(name: "b", observer: session)
    button.on(.touchUpInside, id: "h") { _ in }
    button.sendActions(for: .touchUpInside)  // its control is described before the lock
    try await session.flush()
    let blocker = try Connection(path: path)
    try blocker.execute("BEGIN IMMEDIATE")
    // Enough to fill the 16-event buffer (two events a fire) and then wait a few times: each
    // wait blocks the main actor, which every main-actor suite shares, for the 400 ms
    // `waitTimeout` (16 fires fit: the buffer and the batch the writer holds; 40 fires made 24
    // waits, 9.6 s of it held).
    let fires = 19
    var longest = Duration.zero
    for _ in 0..<fires {
      longest = max(longest, await timed { button.sendActions(for: .touchUpInside) })
    }
    try blocker.execute("COMMIT")
    try await session.end()
    #expect(longest < Self.bound, "a fire waited \(longest) for room")
    #expect(longest >= Self.waitTimeout, "no fire waited for room: \(longest)")
    #expect(session.droppedEvents > 0, "no fire dropped after its wait")
    let reader = try Inspector(path: path)
    let written = try reader.count("fires") + reader.count("outcomes")
    #expect(written + session.status.failedEvents + session.droppedEvents == 2 * (fires + 1))
  }
}

@MainActor
@Suite("Wait timeout values")
struct WaitTimeoutValueTests {
  @Test(
    "a zero, negative or tiny wait timeout is raised to 10 ms; a huge one works without a trap",
    arguments: [Duration.zero, .seconds(-5), .nanoseconds(1), .seconds(Int64.max)])
  func hostileWaitTimeouts(timeout: Duration) async throws {
    var options = RecorderOptions(waitTimeout: timeout)
    #expect(options.waitTimeout == max(timeout, .milliseconds(10)))
    options.waitTimeout = timeout
    #expect(options.waitTimeout == max(timeout, .milliseconds(10)))
    guard timeout > .seconds(1) else { return }
    let directory = TemporaryDirectory()
    let recorder = try await Recorder(path: directory.path("huge.sqlite"), options: options)
    let session = try await recorder.startSession(name: "huge")
    try await session.flush()
    try await session.end()
    #expect(session.status == .ended)
  }
}

@MainActor
@Suite("Flush interval values")
struct FlushIntervalValueTests {
  @Test(
    "a huge or negative flush interval records without a trap",
    arguments: [Duration.seconds(Int64.max), .seconds(-1), .zero])
  func hostileFlushIntervals(interval: Duration) async throws {
    let directory = TemporaryDirectory()
    let recorder = try await Recorder(
      path: directory.path("interval.sqlite"), options: RecorderOptions(flushInterval: interval))
    let session = try await recorder.startSession(name: "interval")
    let button = Button(name: "b", observer: session)
    button.on(.touchUpInside) { _ in }
    button.sendActions(for: .touchUpInside)
    try await session.end()
    #expect(try Inspector(path: directory.path("interval.sqlite")).count("outcomes") == 1)
  }
}

extension SessionStatus {
  /// The failed events the status reports (0 when none).
  var failedEvents: Int {
    switch self {
    case .failedWrites(let failed, _), .endedWithLosses(_, let failed, _): failed
    case .recording, .ended: 0
    }
  }

  /// The last error the status reports.
  var lastError: String? {
    switch self {
    case .failedWrites(_, let error): error
    case .endedWithLosses(_, _, let error): error
    case .recording, .ended: nil
    }
  }
}
