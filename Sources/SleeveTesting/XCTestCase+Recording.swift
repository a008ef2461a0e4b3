#if canImport(XCTest)
  import SleeveRecorder
  import XCTest

  extension XCTestCase {
    /// Records `body` as one session into `path` (default `$SLEEVE_DB`, else
    /// `./sleeve.sqlite`): every control created inside it is observed. The session is named
    /// after the test and tagged `xctest`, and is ended even when `body` throws.
    ///
    /// Its `session_context` row holds the CI context (``RunContext``), the test's identity
    /// (id and name: XCTest's `name`; suite: the test case class, module-qualified; no tags,
    /// XCTest has none) and how `body` ended, from XCTest's API
    /// (``TestIdentity/Result``'s `init(failureRecorded:threw:skipped:)`): `failed` when the
    /// test run's `totalFailureCount` rose while `body` ran; else `skipped` when `body` threw
    /// `XCTSkip`; else `threw` when it threw anything else; else `passed`. Failures recorded
    /// after `body` returns (later in the same test method) are not counted.
    ///
    /// ```swift
    /// func testCheckout() async throws {
    ///   try await recordSession { … }
    /// }
    /// ```
    public func recordSession<Result>(
      to path: String? = nil, tags: [String] = [], environment: [String] = [],
      _ body: () async throws -> Result
    ) async throws -> Result {
      let recorder = try await SharedRecorders.recorder(for: SharedRecorders.resolvedPath(path))
      let session = try await recorder.startSession(
        name: name, tags: ["xctest"] + tags, environment: environment,
        test: TestIdentity(id: name, name: name, suite: String(reflecting: type(of: self))))
      let failuresBefore = testRun?.totalFailureCount ?? 0
      func failureRecorded() -> Bool { (testRun?.totalFailureCount ?? 0) > failuresBefore }
      do {
        let result = try await session.observe(body)
        try await session.end(
          testResult: TestIdentity.Result(
            failureRecorded: failureRecorded(), threw: false, skipped: false))
        return result
      } catch {
        try? await session.end(
          testResult: TestIdentity.Result(
            failureRecorded: failureRecorded(), threw: true, skipped: error is XCTSkip))
        throw error
      }
    }
  }
#endif
