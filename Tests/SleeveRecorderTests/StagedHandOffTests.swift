import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// A batched session keeps a few fires' records in its stage between hand-offs: each way they
/// must still reach the file without another fire to carry them.
@MainActor
@Suite("Staged hand-off")
struct StagedHandOffTests {
  /// A recorder whose hand-off limit (512 records) three fires of one handler never reach,
  /// with a short flush interval.
  private static func recorder(at path: String) throws -> Recorder {
    try Recorder(path: path, options: RecorderOptions(flushInterval: .milliseconds(20)))
  }

  /// Fires `button` three times; each fire is one fire row and one outcome row.
  private static func fireThrice(_ session: RecordingSession) -> Button {
    let button = Button(name: "b", observer: session)
    button.on(.touchUpInside, id: "h") { _ in }
    for _ in 0..<3 { button.sendActions(for: .touchUpInside) }
    return button
  }

  /// Waits (yielding the main actor) until the file holds `fires` fire rows, up to the hang
  /// bound; returns the fire and outcome rows it ends with.
  private static func rows(at path: String, reaching fires: Int) async throws -> (Int, Int) {
    let deadline = ContinuousClock.now + WaitBounds.hang
    while ContinuousClock.now < deadline {
      let reader = try Inspector(path: path)
      if try reader.count("fires") >= fires { break }
      try await Task.sleep(for: .milliseconds(5))
    }
    let reader = try Inspector(path: path)
    return (try reader.count("fires"), try reader.count("outcomes"))
  }

  @Test("records kept between fires reach the file at the writer's next tick, with no flush")
  func tickHandsOver() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("tick.sqlite")
    let recorder = try Self.recorder(at: path)
    let session = try await recorder.startSession(name: "tick")
    let button = Self.fireThrice(session)
    let (fires, outcomes) = try await Self.rows(at: path, reaching: 3)
    #expect(fires == 3 && outcomes == 3)
    _ = button
    try await session.end()
  }

  @Test("a session released without end() still has what it recorded written")
  func releasedSessionHandsOver() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("released.sqlite")
    let recorder = try Self.recorder(at: path)
    weak var released: RecordingSession?
    do {
      let session = try await recorder.startSession(name: "released")
      released = session
      _ = Self.fireThrice(session)
    }
    #expect(released == nil)
    let (fires, outcomes) = try await Self.rows(at: path, reaching: 3)
    #expect(fires == 3 && outcomes == 3)
  }

  @Test("flush() and Recorder.close() write what the stage keeps before they return")
  func flushAndCloseHandOver() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("flush.sqlite")
    // No tick within the test: only flush() and close() can hand the stage over.
    let recorder = try await Recorder(
      path: path, options: RecorderOptions(flushInterval: WaitBounds.unreached))
    let session = try await recorder.startSession(name: "flush")
    let button = Self.fireThrice(session)
    try await session.flush()
    #expect(try Inspector(path: path).count("outcomes") == 3)
    button.sendActions(for: .touchUpInside)
    try await recorder.close()
    #expect(try Inspector(path: path).count("outcomes") == 4)
  }
}
