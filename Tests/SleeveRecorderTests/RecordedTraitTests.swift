import Foundation
import SleeveCore
import SleeveRecorder
import SleeveTestSupport
import SleeveTesting
import Testing
import XCTest

/// Where the trait-based tests record: one file per test process.
enum TraitDatabase {
  static let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("sleeve-trait-\(ProcessInfo.processInfo.processIdentifier).sqlite")
    .path
}

@Suite("SleeveTesting")
struct RecordedTraitTests {
  @Test("a test with .recorded observes the controls it creates", .recorded(to: TraitDatabase.path))
  @MainActor
  func recordedTestObservesItsControls() throws {
    let button = Button(name: "trait.button")
    button.on(.touchUpInside) { _ in }
    button.tap()
    #expect(button.observer is RecordingSession)
    let reader = try Inspector(path: TraitDatabase.path)
    #expect(
      try reader.count(
        "sessions",
        where: "name = 'a test with .recorded observes the controls it creates' "
          + "AND status = 'running' AND tags_json = '[\"swift-testing\"]'") == 1)
  }

  @Test("the trait records one session, ends it, and keeps its fires")
  func traitRecordsAndEndsOneSession() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("trait.sqlite")
    let trait: RecordedTrait = .recorded(to: path, tags: ["unit"])
    let test = try #require(Test.current)
    try await trait.provideScope(for: test, testCase: nil) {
      await MainActor.run {
        let button = Button(name: "scoped.button")
        button.on(.touchUpInside) { _ in }
        button.tap()
      }
    }
    let outside = await MainActor.run { Button(name: "outside") }
    #expect(await MainActor.run { outside.observer } == nil)
    let reader = try Inspector(path: path)
    #expect(
      try reader.rows("SELECT name, status, tags_json FROM sessions")
        == [
          "the trait records one session, ends it, and keeps its fires|ended|[\"swift-testing\",\"unit\"]"
        ])
    #expect(try reader.count("fires") == 3)
    #expect(try reader.count("outcomes") == 1)
  }
}

final class RecordSessionXCTests: XCTestCase {
  func testRecordSessionRecordsAndEnds() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("sleeve-xctest-\(UUID().uuidString).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let taps = try await recordSession(to: path) {
      await MainActor.run {
        let toggle = Switch(name: "xctest.switch")
        var taps = 0
        toggle.on(.valueChanged) { _ in taps += 1 }
        toggle.toggle()
        return taps
      }
    }
    XCTAssertEqual(taps, 1)
    let reader = try Inspector(path: path)
    XCTAssertEqual(
      try reader.rows("SELECT status, tags_json FROM sessions"), ["ended|[\"xctest\"]"])
    XCTAssertEqual(try reader.count("outcomes"), 1)
  }
}
