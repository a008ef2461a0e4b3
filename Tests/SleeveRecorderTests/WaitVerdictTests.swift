import Dispatch
import Foundation
import SleeveCore
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveRecorder

/// Holds the first thread that calls ``hold()`` until ``release()`` (at most
/// `WaitBounds.hang`); later calls pass at once. A seam hook that must stop the writer once.
private final class FirstHold: Sendable {
  private let released = DispatchSemaphore(value: 0)
  private let used = Locked(false)

  func hold() {
    let first = used.withLock { used -> Bool in
      defer { used = true }
      return !used
    }
    guard first else { return }
    _ = released.wait(timeout: .now() + WaitBounds.hang.dispatchInterval)
  }

  func release() { released.signal() }
}

/// Where the writer is held until the waiter's deadline has passed.
enum WriterPoint: CaseIterable, Sendable {
  /// Before it decides to give the batch up (the waiter's deadline comes first).
  case beforeGivingUp
  /// After it gave the batch up, before the verdict reaches the waiter.
  case beforeTheVerdict

  var hook: WritableKeyPath<WaitSeams.Hooks, (@Sendable () -> Void)?> {
    switch self {
    case .beforeGivingUp: \.attemptFailed
    case .beforeTheVerdict: \.batchGivenUp
    }
  }
}

/// A call that waits on the writer gets its verdict, whichever side reaches the deadline first:
/// the interleavings a loaded machine produces by chance, forced through ``WaitSeams``.
@MainActor
@Suite("A wait past its deadline gets a final verdict", .serialized, .timeLimit(.minutes(10)))
struct WaitVerdictTests {
  static let waitTimeout = Duration.milliseconds(400)

  /// A recorder with a strict session and a batched one, each of whose controls fired once
  /// and is written, and another connection holding the write lock.
  @MainActor struct Held {
    let directory = TemporaryDirectory()
    let path: String
    let recorder: Recorder
    let strict: RecordingSession
    let batched: RecordingSession
    let strictButton: Button
    let batchedButton: Button
    let blocker: Connection

    init() async throws {
      path = directory.path("held.sqlite")
      recorder = try await Recorder(
        path: path,
        options: RecorderOptions(
          flushInterval: .milliseconds(10), busyTimeout: .milliseconds(50),
          waitTimeout: WaitVerdictTests.waitTimeout, retryTimeout: WaitBounds.unreached))
      strict = try await recorder.startSession(name: "strict", durability: .strict)
      batched = try await recorder.startSession(name: "batched")
      strictButton = Button(name: "s", observer: strict)
      strictButton.on(.touchUpInside, id: "s") { _ in }
      batchedButton = Button(name: "b", observer: batched)
      batchedButton.on(.touchUpInside, id: "b") { _ in }
      strictButton.sendActions(for: .touchUpInside)
      batchedButton.sendActions(for: .touchUpInside)
      try await strict.flush()
      try await batched.flush()
      blocker = try Connection(path: path)
      try blocker.execute("BEGIN IMMEDIATE")
    }

    /// Holds `point` of the writer (its first reach) until a waiter's deadline has passed.
    func holdWriter(at point: WritableKeyPath<WaitSeams.Hooks, (@Sendable () -> Void)?>) {
      let hold = FirstHold()
      var hooks = WaitSeams.Hooks()
      hooks[keyPath: point] = { hold.hold() }
      hooks.waitExpired = { hold.release() }
      recorder.writer.buffer.seams.set(hooks)
    }

    /// Lets go of the lock and fires the strict control once more: the fire given up before
    /// is never written after it returned (only the first fire and this one are), and its two
    /// events stay the only ones counted.
    func releaseAndFireAgain(sourceLocation: SourceLocation = #_sourceLocation) async throws {
      try blocker.execute("COMMIT")
      strictButton.sendActions(for: .touchUpInside)
      #expect(try fires(of: strict) == 2, sourceLocation: sourceLocation)
      try await strict.end()
      #expect(strict.status.failedEvents == 2, sourceLocation: sourceLocation)
    }

    /// The fires written for `session`.
    func fires(of session: RecordingSession) throws -> Int {
      try Inspector(path: path).count(
        "fires", where: "id >> \(RowID.numberBits) = \(session.rowID)")
    }
  }

  @Test(
    "a strict fire whose deadline passes before the writer gives its batch up returns with its events counted as failed, never written later",
    arguments: WriterPoint.allCases)
  func strictFireGetsItsVerdict(point: WriterPoint) async throws {
    let held = try await Held()
    held.holdWriter(at: point.hook)
    held.strictButton.sendActions(for: .touchUpInside)
    // Counted when sendActions returns: no polling.
    #expect(held.strict.status.failedEvents == 2, "\(held.strict.status)")

    try await held.releaseAndFireAgain()
  }

  @Test(
    "a strict fire whose writer does not answer even in the grace returns, and its events are counted when the writer gets to them, never written"
  )
  func abandonedFireIsNeverWritten() async throws {
    let held = try await Held()
    let hold = FirstHold()
    var hooks = WaitSeams.Hooks()
    hooks.attemptFailed = { hold.hold() }
    hooks.waitAbandoned = { hold.release() }
    held.recorder.writer.buffer.seams.set(hooks)
    let firing = ContinuousClock.now
    held.strictButton.sendActions(for: .touchUpInside)
    let took = ContinuousClock.now - firing
    // It waited its deadline and the grace (two wait timeouts), not for the writer.
    #expect(took >= Self.waitTimeout * 2, "returned after \(took)")
    #expect(took < Self.waitTimeout * 2 + WaitBounds.hang, "returned after \(took)")
    let counting = ContinuousClock.now
    while held.strict.status.failedEvents < 2, ContinuousClock.now - counting < WaitBounds.hang {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(held.strict.status.failedEvents == 2, "\(held.strict.status)")

    try await held.releaseAndFireAgain()
  }

  @Test(
    "startSession past its deadline throws with the writer's cause, and its session is never written later"
  )
  func startSessionGetsItsVerdict() async throws {
    let held = try await Held()
    held.holdWriter(at: \.attemptFailed)
    let error = #expect(throws: RecorderError.self) { try held.recorder.startSession(name: "late") }
    #expect(error?.isTimeout == true)
    #expect(error?.sqliteError?.primaryCode == SQLiteError.busy, "\(String(describing: error))")

    try held.blocker.execute("COMMIT")
    try await held.batched.flush()  // whatever the writer still had is decided by now
    #expect(try Inspector(path: held.path).count("sessions", where: "name = 'late'") == 0)
  }

  @Test(
    "flush past its deadline throws with the writer's cause, its events counted as failed and never written later"
  )
  func flushGetsItsVerdict() async throws {
    let held = try await Held()
    held.holdWriter(at: \.attemptFailed)
    for _ in 0..<3 { held.batchedButton.sendActions(for: .touchUpInside) }
    let error = await #expect(throws: RecorderError.self) { try await held.batched.flush() }
    #expect(error?.isTimeout == true)
    #expect(error?.sqliteError?.primaryCode == SQLiteError.busy, "\(String(describing: error))")
    #expect(held.batched.status.failedEvents == 6, "\(held.batched.status)")

    try held.blocker.execute("COMMIT")
    try await held.batched.end()
    #expect(try held.fires(of: held.batched) == 1)
    #expect(held.batched.status.failedEvents == 6)
  }
}
