import Foundation
import SleeveCore
import SleeveRecorder
import SleeveTestSupport
import Synchronization
import Testing

/// An export that records where it ran, and waits for `release` before it finishes (or fails).
private final class GatedExport: SessionExport {
  let endWait: Duration
  private let failure: String?
  private let state = Mutex((calls: 0, onMainThread: false, released: false))

  init(endWait: Duration, failure: String? = nil) {
    self.endWait = endWait
    self.failure = failure
  }

  struct Failed: Error, CustomStringConvertible { let description: String }

  var calls: Int { state.withLock { $0.calls } }
  var ranOnMainThread: Bool { state.withLock { $0.onMainThread } }
  func release() { state.withLock { $0.released = true } }

  func export(sessionUUID: String, databasePath: String) async throws {
    state.withLock {
      $0.calls += 1
      $0.onMainThread = $0.onMainThread || Thread.isMainThread
    }
    while !state.withLock({ $0.released }) { try await Task.sleep(for: .milliseconds(5)) }
    if let failure { throw Failed(description: failure) }
  }
}

@MainActor
@Suite("RecorderOptions.export: the export at a session's end", .timeLimit(.minutes(10)))
struct SessionExportRunTests {
  private static func recordOneTap(
    into path: String, options: RecorderOptions
  ) throws -> (Recorder, RecordingSession) {
    let recorder = try Recorder(path: path, options: options)
    let session = try recorder.startSession(name: "pushed")
    let button = Button(name: "pay")
    button.on(.touchUpInside, id: "charge") { _ in }
    session.attach(button)
    button.tap()
    return (recorder, session)
  }

  @Test("the export runs off the main thread, once, after the end is committed")
  func exportRunsOffTheFiringThread() async throws {
    let directory = TemporaryDirectory()
    let export = GatedExport(endWait: WaitBounds.hang)
    var options = RecorderOptions()
    options.export = export
    let path = directory.path("gated.sqlite")
    let (recorder, session) = try Self.recordOneTap(into: path, options: options)
    export.release()
    try await session.end()
    try await session.end()
    #expect(export.calls == 1)
    #expect(!export.ranOnMainThread)
    #expect(session.exportStatus == .delivered)
    withExtendedLifetime(recorder) {}
  }

  @Test("end() returns after the export's endWait while the export goes on in the background")
  func endDoesNotWaitPastItsBound() async throws {
    let directory = TemporaryDirectory()
    let export = GatedExport(endWait: .milliseconds(100))
    var options = RecorderOptions()
    options.export = export
    let (recorder, session) = try Self.recordOneTap(
      into: directory.path("slow.sqlite"), options: options)
    try await session.end()
    // end() has returned while the export is still running: it finishes only once released
    // (below). Were end() to wait for it, it would never return and the suite's time limit
    // would fail the test.
    #expect(session.exportStatus == .inProgress)
    export.release()
    let deadline = ContinuousClock.now + WaitBounds.hang
    while session.exportStatus == .inProgress, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(5))
    }
    #expect(session.exportStatus == .delivered)
    withExtendedLifetime(recorder) {}
  }

  @Test("a failed export reaches the error callback and the session's exportStatus")
  func failureIsReported() async throws {
    let directory = TemporaryDirectory()
    let export = GatedExport(endWait: WaitBounds.hang, failure: "collector said no")
    export.release()
    let reported = Mutex<[String]>([])
    var options = RecorderOptions(onWriteError: { error in
      reported.withLock { $0.append(error.description) }
    })
    options.export = export
    let (recorder, session) = try Self.recordOneTap(
      into: directory.path("failing.sqlite"), options: options)
    try await session.end()
    #expect(session.exportStatus == .failed("collector said no"))
    #expect(
      reported.withLock { $0 } == [
        "exporting session \(session.uuid) at its end failed: collector said no"
      ])
    #expect(session.status == .ended)
    withExtendedLifetime(recorder) {}
  }
}
