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

extension Tag {
  @Tag static var sleeveTraitProbe: Self
}

/// What the trait records of the test it scopes: identity, and how the test ended.
@Suite("SleeveTesting test identity")
struct RecordedTraitIdentityTests {
  struct Deliberate: Error {}

  static let columns =
    "SELECT test_id, test_name, test_suite, test_tags_json, test_result FROM session_context"

  /// Runs the trait's scope around `body` for the current test, into a fresh file; issues
  /// whose comment is `deliberate` are observed by the trait, then suppressed so they do not
  /// fail this test.
  func record(
    _ path: String, _ body: @escaping @Sendable () async throws -> Void
  ) async throws {
    let test = try #require(Test.current)
    let trait: RecordedTrait = .recorded(to: path)
    let suppress: IssueHandlingTrait = .filterIssues { issue in
      !issue.comments.contains("deliberate")
    }
    try await suppress.provideScope(for: test, testCase: Test.Case.current) {
      try await trait.provideScope(for: test, testCase: Test.Case.current, performing: body)
    }
  }

  @Test(
    "the trait records the test's full id, display name, suite, tags, and passed",
    .tags(.sleeveTraitProbe))
  func recordsIdentityAndPassed() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("identity.sqlite")
    try await record(path) {}
    let test = try #require(Test.current)
    let reader = try Inspector(path: path)
    let row = try reader.rows(Self.columns)
    #expect(
      row == [
        "SleeveRecorderTests.RecordedTraitIdentityTests/recordsIdentityAndPassed()|"
          + "the trait records the test's full id, display name, suite, tags, and passed|"
          + "SleeveRecorderTests.RecordedTraitIdentityTests|[\".sleeveTraitProbe\"]|passed"
      ])
    // The id names no source location, so a line added above the test keeps it.
    #expect(test.id.sourceLocation != nil)
    #expect(row.first?.contains("RecordedTraitTests.swift") == false)
  }

  @Test(
    "each case of a parameterized test records the test's id and its arguments, no location",
    arguments: [5, 12])
  func recordsCaseArguments(amount: Int) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("case.sqlite")
    try await record(path) {}
    let id = try Inspector(path: path).text("SELECT test_id FROM session_context")
    #expect(
      id == "SleeveRecorderTests.RecordedTraitIdentityTests/recordsCaseArguments(amount:)/"
        + "(amount: \(amount))")
  }

  @Test("a failure recorded inside the trait's scope records failed, even if the test then goes on")
  func recordsFailed() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("failed.sqlite")
    try await record(path) { Issue.record("deliberate") }
    #expect(try Inspector(path: path).text("SELECT test_result FROM session_context") == "failed")
  }

  @Test("a warning or a known issue is not a failure: the test records passed")
  func warningsAndKnownIssuesPass() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("known.sqlite")
    try await record(path) {
      Issue.record("deliberate", severity: .warning)
      withKnownIssue { Issue.record("deliberate") }
    }
    #expect(try Inspector(path: path).text("SELECT test_result FROM session_context") == "passed")
  }

  @Test("a test that throws records threw, and the error reaches the runner")
  func recordsThrew() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("threw.sqlite")
    await #expect(throws: Deliberate.self) { try await record(path) { throw Deliberate() } }
    #expect(try Inspector(path: path).text("SELECT test_result FROM session_context") == "threw")
  }

  @Test("a #require failure records failed, not threw")
  func requireRecordsFailed() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("require.sqlite")
    await #expect(throws: (any Error).self) {
      try await record(path) {
        let value: Int? = nil
        _ = try #require(value, "deliberate")
      }
    }
    #expect(try Inspector(path: path).text("SELECT test_result FROM session_context") == "failed")
  }

  @Test("a scope that ends by throwing while its task is cancelled records skipped")
  func recordsSkipped() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("skipped.sqlite")
    let task = Task {
      try await record(path) {
        withUnsafeCurrentTask { $0?.cancel() }
        try Task.checkCancellation()
      }
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(try Inspector(path: path).text("SELECT test_result FROM session_context") == "skipped")
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
    XCTAssertEqual(
      try reader.rows(
        "SELECT test_id, test_name, test_suite, test_tags_json, test_result FROM session_context"),
      ["\(name)|\(name)|SleeveRecorderTests.RecordSessionXCTests|[]|passed"])
  }

  struct Deliberate: Error {}

  func testRecordSessionRecordsThrew() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("sleeve-xctest-\(UUID().uuidString).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      try await recordSession(to: path) { throw Deliberate() }
      XCTFail("the error did not reach the test")
    } catch is Deliberate {}
    let reader = try Inspector(path: path)
    XCTAssertEqual(try reader.rows("SELECT test_result FROM session_context"), ["threw"])
  }

  func testRecordSessionRecordsSkipped() async throws {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("sleeve-xctest-\(UUID().uuidString).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      try await recordSession(to: path) { throw XCTSkip("deliberate") }
      XCTFail("the skip did not reach the test")
    } catch is XCTSkip {}
    let reader = try Inspector(path: path)
    XCTAssertEqual(try reader.rows("SELECT test_result FROM session_context"), ["skipped"])
  }
}
