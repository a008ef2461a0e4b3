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
/// when the test finishes, whether it passed, failed or threw.
public struct RecordedTrait: TestTrait, SuiteTrait, TestScoping {
  /// The database path, or `nil` for `$SLEEVE_DB`, else `./sleeve.sqlite`.
  public let path: String?
  /// Extra tags for the session.
  public let tags: [String]
  /// Environment variables to record (only these).
  public let environment: [String]

  /// One session for the whole suite when applied to a suite, not one per test.
  public var isRecursive: Bool { false }

  /// Records `function` (the test, or the whole suite) as one session.
  public func provideScope(
    for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
  ) async throws {
    let recorder = try await SharedRecorders.recorder(for: SharedRecorders.resolvedPath(path))
    let session = try await recorder.beginSession(
      name: test.displayName ?? test.name, tags: ["swift-testing"] + tags,
      environment: environment)
    do {
      try await session.observe { try await function() }
    } catch {
      try? await session.end()
      throw error
    }
    try await session.end()
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
