import Foundation
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// The `session_context` row through the recorder into the file.
@Suite("Run context recording")
struct RunContextRecordingTests {
  static let columns = """
    SELECT ci_system, commit_sha, branch, pull_request, pipeline, attempt, job, runner,
      repository, build_url, test_id, test_name, test_suite, test_tags_json, test_result
    FROM session_context
    """

  /// A recorder reading the CI context from `environment` only.
  static func recorder(
    _ directory: TemporaryDirectory, environment: [String: String] = [:],
    context: RunContext = RunContext()
  ) throws -> Recorder {
    var options = RecorderOptions()
    options.contextEnvironment = environment
    options.context = context
    return try Recorder(path: directory.path("context.sqlite"), options: options)
  }

  @Test("the context row is written with the session's row and reads back as recorded")
  func roundTrip() async throws {
    let directory = TemporaryDirectory()
    let recorder = try Self.recorder(
      directory, environment: RunContextTests.pushBuilds[0].environment)
    let session = try await recorder.startSession(
      name: "ci",
      test: TestIdentity(id: "M.T/f()", name: "f", suite: "M.T", tags: ["b", "a\"quote"]))
    // Committed before startSession returns: the row is there while the session runs.
    let reader = try Inspector(path: recorder.path)
    #expect(
      try reader.rows(Self.columns + " WHERE session_id = \(session.rowID)") == [
        "github-actions|ffac537e6cbbf934b08745a378932722df287a53|main|NULL|1658821493|2|test|"
          + "Hosted Agent|octocat/Hello-World|"
          + "https://github.com/octocat/Hello-World/actions/runs/1658821493|M.T/f()|f|M.T|"
          + "[\"b\",\"a\\\"quote\"]|NULL"
      ])
    #expect(session.context == RunContextTests.pushBuilds[0].expected)
    try await session.end(testResult: .passed)
    #expect(try reader.text("SELECT test_result FROM session_context") == "passed")
    try await recorder.close()
  }

  @Test("a session with no context and no test has no session_context row")
  func noContextNoRow() async throws {
    let directory = TemporaryDirectory()
    let recorder = try Self.recorder(directory, environment: RunContextTests.noise)
    let session = try await recorder.startSession(name: "local")
    try await session.end()
    #expect(session.context.isEmpty)
    let reader = try Inspector(path: recorder.path)
    #expect(try reader.count("sessions") == 1)
    #expect(try reader.count("session_context") == 0)
    try await recorder.close()
  }

  @Test("a result ends a session that had no context row by creating one with the result only")
  func resultWithoutContext() async throws {
    let directory = TemporaryDirectory()
    let recorder = try Self.recorder(directory)
    let session = try await recorder.startSession(name: "local")
    try await session.end(testResult: .threw)
    try await session.end(testResult: .passed)  // a second end does nothing
    let reader = try Inspector(path: recorder.path)
    #expect(
      try reader.rows(Self.columns) == [
        "NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|[]|threw"
      ])
    #expect(try reader.count("sessions", where: "status = 'ended'") == 1)
    try await recorder.close()
  }

  @Test("precedence: the session's context over the options' over SLEEVE_* over the CI table")
  func precedence() async throws {
    let directory = TemporaryDirectory()
    var environment = RunContextTests.pushBuilds[1].environment  // GitLab
    environment["SLEEVE_COMMIT"] = "sleeve-commit"
    environment["SLEEVE_BRANCH"] = "sleeve-branch"
    let recorder = try Self.recorder(
      directory, environment: environment,
      context: RunContext(branch: "options-branch", job: "options-job"))
    let plain = try await recorder.startSession(name: "plain")
    let own = try await recorder.startSession(
      name: "own", context: RunContext(commit: "session-commit", job: "session-job"))
    let reader = try Inspector(path: recorder.path)
    let sql = "SELECT ci_system, commit_sha, branch, job, runner FROM session_context"
    #expect(
      try reader.rows(sql + " WHERE session_id = \(plain.rowID)") == [
        "gitlab-ci|sleeve-commit|options-branch|options-job|shared-runners-manager-1"
      ])
    #expect(
      try reader.rows(sql + " WHERE session_id = \(own.rowID)") == [
        "gitlab-ci|session-commit|options-branch|session-job|shared-runners-manager-1"
      ])
    try await plain.end()
    try await own.end()
    try await recorder.close()
  }

  @Test("one process records sessions of several commits and branches, each with its own")
  func severalCommitsInOneProcess() async throws {
    let directory = TemporaryDirectory()
    let recorder = try Self.recorder(directory)
    let history = [("c1", "main"), ("c2", "main"), ("c3", "feature/pay")]
    for (commit, branch) in history {
      let session = try await recorder.startSession(
        name: commit, context: RunContext(commit: commit, branch: branch))
      try await session.end()
    }
    let reader = try Inspector(path: recorder.path)
    #expect(
      try reader.rows(
        """
        SELECT s.name, c.commit_sha, c.branch, c.ci_system FROM sessions s
        LEFT JOIN session_context c ON c.session_id = s.id ORDER BY s.id
        """) == ["c1|c1|main|NULL", "c2|c2|main|NULL", "c3|c3|feature/pay|NULL"])
    try await recorder.close()
  }

  @Test("hostile values reach the file capped, blank ones as NULL")
  func hostileValuesInTheFile() async throws {
    let directory = TemporaryDirectory()
    let recorder = try Self.recorder(directory)
    let huge = String(repeating: "\u{1B}[2J", count: 100_000)
    let session = try await recorder.startSession(
      name: "hostile", context: RunContext(commit: huge, branch: "   ", job: ""),
      test: TestIdentity(
        id: huge, name: "n", tags: Array(repeating: huge, count: 100)))
    try await session.end()
    let reader = try Inspector(path: recorder.path)
    #expect(
      try reader.int("SELECT length(CAST(commit_sha AS BLOB)) FROM session_context") ?? 0 <= 1_024)
    #expect(
      try reader.int("SELECT length(CAST(test_id AS BLOB)) FROM session_context") ?? 0 <= 1_024)
    #expect(
      try reader.text(
        "SELECT coalesce(branch, 'NULL') || coalesce(job, 'NULL') FROM session_context")
        == "NULLNULL")
    #expect(
      try reader.int("SELECT json_array_length(test_tags_json) FROM session_context")
        == Int64(RecordedText.maximumTags))
    try await recorder.close()
  }

  @Test("every test result is accepted by the schema's CHECK and nothing else is")
  func testResultCodesMatchTheSchema() throws {
    let directory = TemporaryDirectory()
    let connection = try SleeveDatabase.openForWriting(path: directory.path("codes.sqlite"))
    try connection.execute("PRAGMA foreign_keys = OFF")
    func accepts(_ value: String) -> Bool {
      (try? connection.execute(
        "INSERT INTO session_context (session_id, test_result) VALUES (abs(random()), '\(value)')"))
        != nil
    }
    for result in TestIdentity.Result.allCases { #expect(accepts(result.rawValue)) }
    #expect(!accepts("cancelled"))
    #expect(!accepts("Passed"))
  }
}
