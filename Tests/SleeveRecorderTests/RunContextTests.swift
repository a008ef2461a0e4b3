import SleeveRecorder
import SleeveStore
import Testing

/// The fixed CI table, read from fixture environments (never the process's).
@Suite("Run context from CI variables")
struct RunContextTests {
  /// One CI build: its environment and the context it must give.
  struct Build: Sendable, CustomTestStringConvertible {
    let label: String
    let environment: [String: String]
    let expected: RunContext
    var testDescription: String { label }
  }

  /// Unrelated variables every fixture also holds: none of them may reach the context.
  static let noise = [
    "HOME": "/home/ci", "PATH": "/usr/bin", "CI": "true", "SECRET_TOKEN": "hunter2",
    "HOSTNAME": "runner-host", "GIT_AUTHOR_NAME": "someone",
  ]

  static let pushBuilds: [Build] = [
    Build(
      label: "GitHub Actions",
      environment: [
        "GITHUB_ACTIONS": "true", "GITHUB_SHA": "ffac537e6cbbf934b08745a378932722df287a53",
        "GITHUB_REF": "refs/heads/main", "GITHUB_REF_NAME": "main", "GITHUB_RUN_ID": "1658821493",
        "GITHUB_RUN_ATTEMPT": "2", "GITHUB_JOB": "test", "RUNNER_NAME": "Hosted Agent",
        "GITHUB_REPOSITORY": "octocat/Hello-World", "GITHUB_SERVER_URL": "https://github.com/",
      ],
      expected: RunContext(
        ciSystem: .githubActions, commit: "ffac537e6cbbf934b08745a378932722df287a53",
        branch: "main", pipeline: "1658821493", attempt: "2", job: "test",
        runner: "Hosted Agent", repository: "octocat/Hello-World",
        buildURL: "https://github.com/octocat/Hello-World/actions/runs/1658821493")),
    Build(
      label: "GitLab CI",
      environment: [
        "GITLAB_CI": "true", "CI_COMMIT_SHA": "1ecfd275763eff1d6b4844ea3168962458c9f27a",
        "CI_COMMIT_BRANCH": "main", "CI_COMMIT_REF_NAME": "main", "CI_PIPELINE_ID": "1000",
        "CI_JOB_NAME": "unit tests", "CI_RUNNER_DESCRIPTION": "shared-runners-manager-1",
        "CI_PROJECT_PATH": "group/project",
        "CI_JOB_URL": "https://gitlab.example.com/group/project/-/jobs/42",
        "CI_PIPELINE_URL": "https://gitlab.example.com/group/project/-/pipelines/1000",
      ],
      expected: RunContext(
        ciSystem: .gitlabCI, commit: "1ecfd275763eff1d6b4844ea3168962458c9f27a",
        branch: "main", pipeline: "1000", job: "unit tests",
        runner: "shared-runners-manager-1", repository: "group/project",
        buildURL: "https://gitlab.example.com/group/project/-/jobs/42")),
    Build(
      label: "Buildkite",
      environment: [
        "BUILDKITE": "true", "BUILDKITE_COMMIT": "83a20ec058e2fb00e7fa4558c4c6e81e2dcf253d",
        "BUILDKITE_BRANCH": "main", "BUILDKITE_PULL_REQUEST": "false",
        "BUILDKITE_BUILD_NUMBER": "1514", "BUILDKITE_RETRY_COUNT": "0",
        "BUILDKITE_LABEL": ":hammer: Specs", "BUILDKITE_AGENT_NAME": "elastic-builders-088264dc4f9",
        "BUILDKITE_REPO": "git@github.com:acme-inc/my-project.git",
        "BUILDKITE_BUILD_URL": "https://buildkite.com/acme-inc/my-project/builds/1514",
      ],
      expected: RunContext(
        ciSystem: .buildkite, commit: "83a20ec058e2fb00e7fa4558c4c6e81e2dcf253d",
        branch: "main", pipeline: "1514", attempt: "0", job: ":hammer: Specs",
        runner: "elastic-builders-088264dc4f9",
        repository: "git@github.com:acme-inc/my-project.git",
        buildURL: "https://buildkite.com/acme-inc/my-project/builds/1514")),
    Build(
      label: "CircleCI",
      environment: [
        "CIRCLECI": "true", "CIRCLE_SHA1": "2f7d3b0c9a8e", "CIRCLE_BRANCH": "main",
        "CIRCLE_WORKFLOW_ID": "e6a5b0f8-5c3f-4c1e-9a0a-1f2e3d4c5b6a", "CIRCLE_JOB": "build",
        "CIRCLE_BUILD_NUM": "77", "CIRCLE_PROJECT_USERNAME": "acme",
        "CIRCLE_PROJECT_REPONAME": "shop",
        "CIRCLE_REPOSITORY_URL": "git@github.com:acme/shop.git",
        "CIRCLE_BUILD_URL": "https://circleci.com/gh/acme/shop/77",
      ],
      expected: RunContext(
        ciSystem: .circleCI, commit: "2f7d3b0c9a8e", branch: "main",
        pipeline: "e6a5b0f8-5c3f-4c1e-9a0a-1f2e3d4c5b6a", job: "build", repository: "acme/shop",
        buildURL: "https://circleci.com/gh/acme/shop/77")),
    Build(
      label: "Jenkins",
      environment: [
        "JENKINS_URL": "http://jenkins.example.com/", "GIT_COMMIT": "a806ba7701bcfc9f784c",
        "GIT_BRANCH": "origin/main", "GIT_LOCAL_BRANCH": "main", "BUILD_NUMBER": "153",
        "JOB_NAME": "shop/main", "NODE_NAME": "linux-agent",
        "GIT_URL": "https://github.com/acme/shop.git",
        "BUILD_URL": "http://jenkins.example.com/job/shop/job/main/153/",
      ],
      expected: RunContext(
        ciSystem: .jenkins, commit: "a806ba7701bcfc9f784c", branch: "main", pipeline: "153",
        job: "shop/main", runner: "linux-agent", repository: "https://github.com/acme/shop.git",
        buildURL: "http://jenkins.example.com/job/shop/job/main/153/")),
    Build(
      label: "Azure Pipelines",
      environment: [
        "TF_BUILD": "True", "BUILD_SOURCEVERSION": "9d4c1e0b7a",
        "BUILD_SOURCEBRANCH":
          "refs/heads/release/2.0", "BUILD_SOURCEBRANCHNAME": "2.0", "BUILD_BUILDID": "1430",
        "SYSTEM_JOBATTEMPT": "1", "SYSTEM_JOBDISPLAYNAME": "Test Linux",
        "AGENT_NAME": "Azure Pipelines 3", "BUILD_REPOSITORY_NAME": "Scripts",
        "SYSTEM_TEAMFOUNDATIONCOLLECTIONURI": "https://dev.azure.com/fabrikamfiber/",
        "SYSTEM_TEAMPROJECT": "Fabrikam Fiber",
      ],
      expected: RunContext(
        ciSystem: .azurePipelines, commit: "9d4c1e0b7a", branch: "release/2.0",
        pipeline: "1430", attempt: "1", job: "Test Linux", runner: "Azure Pipelines 3",
        repository: "Scripts",
        buildURL: "https://dev.azure.com/fabrikamfiber/Fabrikam%20Fiber/_build/results?buildId=1430"
      )),
  ]

  @Test(
    "each CI system's documented variables fill the context of a push build", arguments: pushBuilds)
  func pushBuild(_ build: Build) {
    let environment = build.environment.merging(Self.noise) { own, _ in own }
    #expect(RunContext(environment: environment) == build.expected)
  }

  static let pullRequestBuilds: [Build] = [
    Build(
      label: "GitHub Actions",
      environment: [
        "GITHUB_ACTIONS": "true", "GITHUB_SHA": "merge-sha", "GITHUB_REF": "refs/pull/53/merge",
        "GITHUB_REF_NAME": "53/merge", "GITHUB_HEAD_REF": "feature/pay", "GITHUB_BASE_REF": "main",
      ],
      expected: RunContext(
        ciSystem: .githubActions, commit: "merge-sha", branch: "feature/pay", pullRequest: "53")),
    Build(
      label: "GitLab CI",
      environment: [
        "GITLAB_CI": "true", "CI_COMMIT_SHA": "mr-sha",
        "CI_COMMIT_REF_NAME": "refs/merge-requests/7/head",
        "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "feature/pay", "CI_MERGE_REQUEST_IID": "7",
        "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main",
      ],
      expected: RunContext(
        ciSystem: .gitlabCI, commit: "mr-sha", branch: "feature/pay", pullRequest: "7")),
    Build(
      label: "Buildkite",
      environment: [
        "BUILDKITE": "true", "BUILDKITE_COMMIT": "pr-sha", "BUILDKITE_BRANCH": "feature/pay",
        "BUILDKITE_PULL_REQUEST": "123", "BUILDKITE_PULL_REQUEST_BASE_BRANCH": "main",
      ],
      expected: RunContext(
        ciSystem: .buildkite, commit: "pr-sha", branch: "feature/pay", pullRequest: "123")),
    Build(
      label: "CircleCI",
      environment: [
        "CIRCLECI": "true", "CIRCLE_SHA1": "pr-sha", "CIRCLE_BRANCH": "feature/pay",
        "CIRCLE_PULL_REQUEST": "https://github.com/acme/shop/pull/88",
      ],
      expected: RunContext(
        ciSystem: .circleCI, commit: "pr-sha", branch: "feature/pay", pullRequest: "88")),
    Build(
      label: "CircleCI, forked pull request",
      environment: [
        "CIRCLECI": "true", "CIRCLE_BRANCH": "pull/89", "CIRCLE_PR_NUMBER": "89",
        "CIRCLE_PULL_REQUEST": "https://github.com/acme/shop/pull/89",
      ],
      expected: RunContext(ciSystem: .circleCI, branch: "pull/89", pullRequest: "89")),
    Build(
      label: "Jenkins",
      environment: [
        "JENKINS_URL": "http://jenkins/", "GIT_COMMIT": "pr-sha", "BRANCH_NAME": "PR-24",
        "CHANGE_ID": "24", "CHANGE_BRANCH": "feature/pay", "CHANGE_TARGET": "main",
      ],
      expected: RunContext(
        ciSystem: .jenkins, commit: "pr-sha", branch: "feature/pay", pullRequest: "24")),
    Build(
      label: "Azure Pipelines",
      environment: [
        "TF_BUILD": "True", "BUILD_SOURCEVERSION": "pr-sha",
        "BUILD_SOURCEBRANCH": "refs/pull/17/merge",
        "SYSTEM_PULLREQUEST_SOURCEBRANCH": "refs/heads/users/raisa/new-feature",
        "SYSTEM_PULLREQUEST_PULLREQUESTID": "17", "SYSTEM_PULLREQUEST_PULLREQUESTNUMBER": "524",
      ],
      expected: RunContext(
        ciSystem: .azurePipelines, commit: "pr-sha", branch: "users/raisa/new-feature",
        pullRequest: "524")),
  ]

  @Test(
    "a pull request build records its number and its source branch, not the merge ref",
    arguments: pullRequestBuilds)
  func pullRequestBuild(_ build: Build) {
    #expect(RunContext(environment: build.environment) == build.expected)
  }

  @Test("outside CI nothing is read: the table's variables without their marker leave it empty")
  func outsideCI() {
    var environment = Self.noise
    for build in Self.pushBuilds {
      // Every variable of every system, but no marker (and markers with other values).
      environment.merge(build.environment) { own, _ in own }
    }
    for marker in ["GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "CIRCLECI", "TF_BUILD"] {
      environment[marker] = "false"
    }
    environment["JENKINS_URL"] = "  "
    #expect(RunContext(environment: environment) == RunContext())
    #expect(RunContext(environment: environment).isEmpty)
    #expect(RunContext(environment: [:]).isEmpty)
  }

  @Test("the first system of the table wins when several markers are set")
  func detectionOrder() {
    let context = RunContext(
      environment: ["JENKINS_URL": "http://j/", "GITHUB_ACTIONS": "true", "GIT_COMMIT": "j"])
    #expect(context == RunContext(ciSystem: .githubActions))
  }

  @Test("SLEEVE_COMMIT and SLEEVE_BRANCH override the CI system's values, in CI and outside it")
  func sleeveOverrides() {
    var environment = Self.pushBuilds[0].environment
    environment["SLEEVE_COMMIT"] = "override-sha"
    environment["SLEEVE_BRANCH"] = "refs/heads/override"
    let inCI = RunContext(environment: environment)
    #expect(inCI.commit == "override-sha")
    #expect(inCI.branch == "override")
    #expect(inCI.ciSystem == .githubActions)
    #expect(inCI.pipeline == "1658821493")
    let outside = RunContext(environment: ["SLEEVE_COMMIT": "c1", "SLEEVE_BRANCH": "b1"])
    #expect(outside == RunContext(commit: "c1", branch: "b1"))
    // A blank override is no override.
    environment["SLEEVE_COMMIT"] = " \t"
    #expect(RunContext(environment: environment).commit == Self.pushBuilds[0].expected.commit)
  }

  @Test("an override replaces only the fields it sets")
  func overrideFieldByField() {
    let base = RunContext(ciSystem: .jenkins, commit: "a", branch: "main", job: "j")
    let merged = base.overridden(by: RunContext(branch: "feature", runner: " ", buildURL: "u"))
    #expect(
      merged
        == RunContext(ciSystem: .jenkins, commit: "a", branch: "feature", job: "j", buildURL: "u"))
  }

  @Test("empty and whitespace values are NULL; huge and control-character values are capped")
  func hostileValues() {
    let huge = String(repeating: "é", count: 1_000_000)
    let escape = "\u{1B}[31mred\u{7}\u{0}"
    let context = RunContext(
      environment: [
        "GITHUB_ACTIONS": "true", "GITHUB_SHA": "", "GITHUB_REF": "\n\t \u{3000}",
        "GITHUB_HEAD_REF": "", "GITHUB_RUN_ID": huge, "GITHUB_JOB": escape,
        "RUNNER_NAME": String(repeating: "x", count: 1_025),
        "GITHUB_REPOSITORY": "o/r", "GITHUB_SERVER_URL": "https://github.com",
      ])
    #expect(context.commit == nil)
    #expect(context.branch == nil)
    #expect(context.pullRequest == nil)
    #expect(context.job == escape)  // kept as text; every output escapes it
    for value in [context.pipeline, context.runner, context.buildURL] {
      guard let text = value else {
        Issue.record("a capped value went missing")
        continue
      }
      #expect(text.utf8.count <= RecordedText.Limit.name.bytes)
      #expect(text.hasSuffix(RecordedText.marker))
    }
  }

  @Test("a pull request number is read only when the ref or URL ends in a decimal number")
  func pullRequestParsing() {
    for ref in [
      "refs/pull//merge", "refs/pull/12a/merge", "refs/pull/１２/merge", "refs/heads/pull/1/merge",
    ] {
      let context = RunContext(environment: ["GITHUB_ACTIONS": "true", "GITHUB_REF": ref])
      #expect(context.pullRequest == nil, "\(ref)")
    }
    let circle = RunContext(
      environment: ["CIRCLECI": "true", "CIRCLE_PULL_REQUEST": "https://github.com/a/b/pull/7/"])
    #expect(circle.pullRequest == "7")
  }

  @Test("a test result follows failure, then skip, then throw, then pass")
  func resultPrecedence() {
    typealias Result = TestIdentity.Result
    #expect(Result(failureRecorded: false, threw: false, skipped: false) == .passed)
    #expect(Result(failureRecorded: false, threw: true, skipped: false) == .threw)
    #expect(Result(failureRecorded: false, threw: true, skipped: true) == .skipped)
    #expect(Result(failureRecorded: true, threw: true, skipped: true) == .failed)
    #expect(Result(failureRecorded: true, threw: false, skipped: false) == .failed)
    #expect(Result(failureRecorded: false, threw: false, skipped: true) == .passed)
  }
}
