import SleeveStore

/// Where a session ran and which test it recorded, as its `session_context` row holds it
/// (`Migrations/0003_run_context.sql`). Every field is `nil` when unknown: outside CI, for a
/// variable the CI system did not set, and for every session of a file from before 0003.
public struct SessionContext: Equatable, Sendable {
  /// Where it ran: commit, branch, pull request, pipeline, attempt, job, runner, repository,
  /// build URL and CI system (a `ci_system` this binary does not know reads as `nil`).
  public var run = RunContext()
  /// The recorded test's full id, as recorded (an older recorder's ends with the test's source
  /// location; ``test`` reads it without).
  public var testID: String?
  /// The test's display name.
  public var testName: String?
  /// The test's suite.
  public var testSuite: String?
  /// The test's tags.
  public var testTags: [String] = []
  /// How the test ended: `passed`, `failed`, `threw` or `skipped`.
  public var testResult: String?

  /// Nothing known.
  public init() {}

  /// The test identity sessions are compared by (its id without a trailing source location,
  /// see ``RecordedTestID``; else its display name), or `nil`.
  public var test: String? { testID.map(RecordedTestID.withoutLocation) ?? testName }

  /// The fields that are known, by the names `sessions --format json` uses, in a fixed order.
  public var knownFields: [(name: String, value: String)] {
    let fields: [(String, String?)] = [
      ("ciSystem", run.ciSystem?.rawValue), ("commit", run.commit), ("branch", run.branch),
      ("pullRequest", run.pullRequest), ("pipeline", run.pipeline), ("attempt", run.attempt),
      ("job", run.job), ("runner", run.runner), ("repository", run.repository),
      ("buildURL", run.buildURL),
      ("testID", testID), ("testName", testName), ("testSuite", testSuite),
      ("testResult", testResult),
    ]
    return fields.compactMap { name, value in value.map { (name, $0) } }
  }

  /// The columns read, in the order ``init(row:at:)`` expects them, each qualified by `alias`.
  static func columns(_ alias: String) -> String {
    [
      "ci_system", "commit_sha", "branch", "pull_request", "pipeline", "attempt", "job",
      "runner", "repository", "build_url", "test_id", "test_name", "test_suite",
      "test_tags_json", "test_result",
    ].map { "\(alias).\($0)" }.joined(separator: ", ")
  }

  /// Reads the columns of ``columns(_:)`` starting at `first`; empty texts read as `nil`, and
  /// test tags that are not a JSON array of strings as none. Each text is capped as the
  /// recorder caps it on the way in (`RecordedText.Limit.name`), so a file written by another
  /// tool cannot make an output line longer than a recorded one.
  init(row: Statement, at first: Int32) {
    func raw(_ offset: Int32) -> String? {
      guard let value = row.text(at: first + offset), !value.isEmpty else { return nil }
      return value
    }
    func text(_ offset: Int32) -> String? {
      raw(offset).map { RecordedText.capped($0, to: .name) }
    }
    run = RunContext(
      ciSystem: text(0).flatMap(RunContext.CISystem.init(rawValue:)), commit: text(1),
      branch: text(2), pullRequest: text(3), pipeline: text(4), attempt: text(5), job: text(6),
      runner: text(7), repository: text(8), buildURL: text(9))
    testID = text(10)
    testName = text(11)
    testSuite = text(12)
    testTags = raw(13).map(RecordedMetadata.stringArray) ?? []
    testResult = text(14)
  }
}
