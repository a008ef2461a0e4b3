#if canImport(XCTest)
  import SleeveRecorder
  import XCTest

  extension XCTestCase {
    /// Records `body` as one session into `path` (default `$SLEEVE_DB`, else
    /// `./sleeve.sqlite`): every control created inside it is observed. The session is named
    /// after the test and tagged `xctest`, and is ended even when `body` throws.
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
      let session = try await recorder.beginSession(
        name: name, tags: ["xctest"] + tags, environment: environment)
      do {
        let result = try await session.observe(body)
        try await session.end()
        return result
      } catch {
        try? await session.end()
        throw error
      }
    }
  }
#endif
