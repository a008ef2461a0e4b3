import SleeveCore
import SleeveRecorder
import Testing

/// A Swift Testing trait that records one session per test (or, on a suite, one per suite)
/// into a Sleeve database: every control created while the test runs is observed by it.
///
/// ```swift
/// @Test(.recorded) func checkoutSubmits() { … }            // $SLEEVE_DB or ./sleeve.sqlite
/// @Suite(.recorded(to: "checkout.sqlite")) struct CheckoutTests { … }
/// ```
///
/// The session is named after the test (or suite) and tagged `swift-testing`; it is ended
/// when the test finishes, whether it passed, failed or threw. Its `session_context` row holds
/// the CI context (``RunContext``), the test's identity and how it ended:
///
/// - id: `Test.ID`'s description without its source location (module, type and function:
///   `Module.Suite/payOnce()`), so adding a line above a test keeps its id; each case of a
///   parameterized test is its own session, its id followed by the case's arguments
///   (`Module.Suite/pays(amount:)/(amount: 5)`).
/// - name: the display name, else the function's name; suite: the id of the containing suite
///   (for a suite-level session, its own id); tags: the test's tags (`Test.tags`), sorted.
/// - result, from Swift Testing's public API only (``TestIdentity/Result``'s
///   `init(failureRecorded:threw:skipped:)`): `failed` when an issue that counts as a failure
///   (`Issue.isFailure`: not a warning, not a known issue) was recorded inside the scope (an
///   `#expect`, a `#require`, `Issue.record`, a miscounted confirmation; for a suite, in any of
///   its tests); else `skipped` when the scope ended by throwing while its task was cancelled
///   (`Test.cancel()` cancels the test's task); else `threw` when it ended by throwing; else
///   `passed`. A test disabled by a condition trait never runs, so it records no session.
public struct RecordedTrait: TestTrait, SuiteTrait, TestScoping {
  /// The database path, or `nil` for `$SLEEVE_DB`, else `./sleeve.sqlite`.
  public let path: String?
  /// Extra tags for the session.
  public let tags: [String]
  /// Environment variables to record (only these).
  public let environment: [String]

  /// One session for the whole suite when applied to a suite, not one per test.
  public var isRecursive: Bool { false }

  /// Records `function` (the test, or the whole suite) as one session, with the test's
  /// identity and result.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let recorder = try await SharedRecorders.recorder(for: SharedRecorders.resolvedPath(path))
    let session = try await recorder.startSession(
      name: test.displayName ?? test.name, tags: ["swift-testing"] + tags,
      environment: environment, test: Self.identity(of: test, case: testCase))
    let failureRecorded = Locked(false)
    // Observes every issue recorded inside the scope and passes it on unchanged.
    let observer: IssueHandlingTrait = .filterIssues { issue in
      if issue.isFailure { failureRecorded.withLock { $0 = true } }
      return true
    }
    do {
      try await observer.provideScope(for: test, testCase: testCase) {
        try await session.observe { try await function() }
      }
    } catch {
      let result = TestIdentity.Result(
        failureRecorded: failureRecorded.withLock { $0 }, threw: true,
        skipped: Task.isCancelled)
      try? await session.end(testResult: result)
      throw error
    }
    try await session.end(
      testResult: TestIdentity.Result(
        failureRecorded: failureRecorded.withLock { $0 }, threw: false, skipped: false))
  }

  /// `test`'s identity as the trait records it, for `testCase` when it is one case of a
  /// parameterized test.
  static func identity(of test: Test, case testCase: Test.Case?) -> TestIdentity {
    // The id: module, suite and function, never the source location (which moves when a line
    // is added above the test), then a parameterized case's arguments.
    var id = test.id
    id.sourceLocation = nil
    var recordedID = id.description
    if let testCase, testCase.isParameterized, let arguments = arguments(of: testCase) {
      recordedID += "/(" + arguments + ")"
    }
    // The suite: the id without, for a test function, its own name component; none for a
    // function outside any suite.
    var suite: Test.ID? = id
    if !test.isSuite {
      suite?.nameComponents.removeLast()
      if suite?.nameComponents.isEmpty == true { suite = nil }
    }
    return TestIdentity(
      id: recordedID, name: test.displayName ?? test.name,
      suite: suite?.description, tags: test.tags.map(\.description).sorted())
  }

  /// `amount: 5, name: "a"`: a parameterized case's arguments, each its parameter's name and
  /// its value as Swift Testing describes values (`String(describingForTest:)`); `nil` when
  /// they cannot be read. Swift Testing keeps `Test.Case.arguments` out of its public API, so
  /// they are read by reflection of what it stores: the arguments of its `_kind`'s
  /// `parameterized` case (the layout of the toolchain this is built with) or a stored
  /// `arguments` (an earlier layout), each a `value` and a `parameter` with a `firstName`. A
  /// layout that differs leaves the case out of the id, never a wrong one in it.
  static func arguments(of testCase: Test.Case) -> String? {
    let mirror = Mirror(reflecting: testCase)
    let stored =
      mirror.descendant("_kind", "parameterized", "arguments") ?? mirror.descendant("arguments")
    guard let arguments = stored as? [Any], !arguments.isEmpty else { return nil }
    var described: [String] = []
    for argument in arguments {
      let mirror = Mirror(reflecting: argument)
      guard let value = mirror.descendant("value"),
        let name = mirror.descendant("parameter", "firstName") as? String
      else { return nil }
      described.append(name + ": " + String(describingForTest: value))
    }
    return described.joined(separator: ", ")
  }
}

extension Trait where Self == RecordedTrait {
  /// Records the test (or suite) into `$SLEEVE_DB`, else `./sleeve.sqlite`.
  public static var recorded: Self { RecordedTrait(path: nil, tags: [], environment: []) }

  /// Records the test (or suite) into `path`, with extra tags and named environment
  /// variables.
  public static func recorded(
    to path: String? = nil, tags: [String] = [], environment: [String] = []
  ) -> Self {
    RecordedTrait(path: path, tags: tags, environment: environment)
  }
}
