import SleeveStore

/// The test a session records, written to `session_context` when the session starts: its
/// full id, display name, suite and tags. ``RecordingSession/end(testResult:)`` adds how it
/// ended. The Swift Testing trait and the XCTest helper fill it in; any runner may.
///
/// Recorded capped as every recorded name is (`RecordedText.Limit.name`, 1,024 UTF-8 bytes),
/// at most `RecordedText.maximumTags` tags (the first ones given).
public struct TestIdentity: Sendable, Equatable {
  /// How a test ended (`session_context.test_result`).
  public typealias Result = RunContextCodes.TestResult

  /// The test's full id, unique in its run (Swift Testing's `Test.ID`, XCTest's
  /// `Class.method`).
  public var id: String
  /// The test's display name.
  public var name: String
  /// The suite (type) the test belongs to, if any.
  public var suite: String?
  /// The test's tags.
  public var tags: [String]

  /// A test identity.
  public init(id: String, name: String, suite: String? = nil, tags: [String] = []) {
    self.id = id
    self.name = name
    self.suite = suite
    self.tags = tags
  }

  /// The identity as it is recorded: every text capped, at most `RecordedText.maximumTags`
  /// tags.
  package var recorded: TestIdentity {
    TestIdentity(
      id: RecordedText.capped(id, to: .name), name: RecordedText.capped(name, to: .name),
      suite: suite.map { RecordedText.capped($0, to: .name) },
      tags: tags.prefix(RecordedText.maximumTags).map { RecordedText.capped($0, to: .name) })
  }

  /// Tags as a JSON array.
  var tagsJSON: String { JSON.array(tags) }
}

extension RunContextCodes.TestResult {
  /// The result of a test from what its framework's API tells, in this order: `failed` when
  /// a failure was recorded while it ran (even if it then threw or was skipped: XCTest and
  /// Swift Testing report such a test as failed); else `skipped` when it ended by a skip or
  /// cancellation; else `threw` when it ended by throwing; else `passed`.
  ///
  /// - Parameters:
  ///   - failureRecorded: Whether a failure was recorded while the test ran.
  ///   - threw: Whether the test ended by throwing.
  ///   - skipped: Whether that throw was a skip or cancellation.
  public init(failureRecorded: Bool, threw: Bool, skipped: Bool) {
    self =
      if failureRecorded { .failed } else if threw && skipped { .skipped } else if threw {
        .threw
      } else { .passed }
  }
}
