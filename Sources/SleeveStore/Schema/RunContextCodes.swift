/// The text codes of migration 0003's `session_context` table: the one home of the names its
/// `ci_system` and `test_result` columns hold. The recorder writes them, queries read them;
/// `RunContextCodesTests` holds `TestResult` against the column's CHECK constraint.
public enum RunContextCodes {
  /// `session_context.ci_system`: the CI system whose documented variables a session's context
  /// was read from.
  public enum CISystem: String, CaseIterable, Sendable {
    /// GitHub Actions (`GITHUB_ACTIONS=true`).
    case githubActions = "github-actions"
    /// GitLab CI/CD (`GITLAB_CI=true`).
    case gitlabCI = "gitlab-ci"
    /// Buildkite (`BUILDKITE=true`).
    case buildkite = "buildkite"
    /// CircleCI (`CIRCLECI=true`).
    case circleCI = "circleci"
    /// Jenkins (`JENKINS_URL` set).
    case jenkins = "jenkins"
    /// Azure Pipelines (`TF_BUILD=True`).
    case azurePipelines = "azure-pipelines"
  }

  /// `session_context.test_result`: how the test a session recorded ended, as far as the test
  /// framework's API says.
  public enum TestResult: String, CaseIterable, Sendable {
    /// The test ended without throwing and without a failure being recorded.
    case passed
    /// A failure was recorded while the test ran (an expectation, a recorded issue, an
    /// `XCTAssert`), whether or not it then threw.
    case failed
    /// The test ended by throwing an error, with no failure recorded before.
    case threw
    /// The test was skipped or cancelled (`XCTSkip`; Swift Testing's `Test.cancel()`), with
    /// no failure recorded.
    case skipped
  }
}
