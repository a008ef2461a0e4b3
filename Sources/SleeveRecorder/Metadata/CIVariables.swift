import Foundation

/// The fixed table of CI variables a ``RunContext`` is read from: for each of six CI systems,
/// its documented marker variable and the documented variables of each field, first choice
/// first. README's table "Where a session ran" is this table; nothing else of the environment
/// is read.
///
/// Variable names were checked against each vendor's reference: GitHub Actions "Variables
/// reference", GitLab "Predefined CI/CD variables reference", Buildkite "Environment
/// variables", CircleCI "Project values and variables", Jenkins core and Git plugin
/// environment variables, Azure Pipelines "Use predefined variables".
struct CIVariables {
  private let environment: [String: String]

  init(_ environment: [String: String]) { self.environment = environment }

  /// The value of `name`, `nil` when unset, empty or only whitespace (so a chain of
  /// alternatives skips it).
  subscript(_ name: String) -> String? {
    guard let value = environment[name],
      !value.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    else { return nil }
    return value
  }

  /// The first of `names` that has a value.
  func first(_ names: String...) -> String? {
    names.lazy.compactMap { self[$0] }.first
  }

  /// Whether `name` holds `true` (any letter case: Azure Pipelines sets `True`).
  func isTrue(_ name: String) -> Bool {
    self[name]?.lowercased() == "true"
  }

  /// The readers, in detection order: the first whose marker is set describes the run.
  static let table: [@Sendable (CIVariables) -> RunContext?] = [
    githubActions, gitlabCI, buildkite, circleCI, jenkins, azurePipelines,
  ]

  /// GitHub Actions: marker `GITHUB_ACTIONS=true`. A pull request's number is read from
  /// `GITHUB_REF` (`refs/pull/<number>/merge`); the build URL is
  /// `$GITHUB_SERVER_URL/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID`.
  static func githubActions(_ v: CIVariables) -> RunContext? {
    guard v.isTrue("GITHUB_ACTIONS") else { return nil }
    var url: String?
    if let server = v["GITHUB_SERVER_URL"], let repository = v["GITHUB_REPOSITORY"],
      let run = v["GITHUB_RUN_ID"]
    {
      url = trimmingSlashes(server) + "/" + repository + "/actions/runs/" + run
    }
    return RunContext(
      ciSystem: .githubActions, commit: v["GITHUB_SHA"],
      branch: v.first("GITHUB_HEAD_REF", "GITHUB_REF"),
      pullRequest: v["GITHUB_REF"].flatMap {
        number(in: $0, prefix: "refs/pull/", suffix: "/merge")
      },
      pipeline: v["GITHUB_RUN_ID"], attempt: v["GITHUB_RUN_ATTEMPT"], job: v["GITHUB_JOB"],
      runner: v["RUNNER_NAME"], repository: v["GITHUB_REPOSITORY"], buildURL: url)
  }

  /// GitLab CI/CD: marker `GITLAB_CI=true`. GitLab documents no attempt number.
  static func gitlabCI(_ v: CIVariables) -> RunContext? {
    guard v.isTrue("GITLAB_CI") else { return nil }
    return RunContext(
      ciSystem: .gitlabCI, commit: v["CI_COMMIT_SHA"],
      branch: v.first(
        "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME", "CI_COMMIT_BRANCH", "CI_COMMIT_REF_NAME"),
      pullRequest: v["CI_MERGE_REQUEST_IID"], pipeline: v["CI_PIPELINE_ID"],
      job: v["CI_JOB_NAME"], runner: v["CI_RUNNER_DESCRIPTION"],
      repository: v["CI_PROJECT_PATH"], buildURL: v.first("CI_JOB_URL", "CI_PIPELINE_URL"))
  }

  /// Buildkite: marker `BUILDKITE=true`. `BUILDKITE_PULL_REQUEST` is `false` outside a pull
  /// request; the attempt is `BUILDKITE_RETRY_COUNT` (retries so far: `0` on the first run).
  static func buildkite(_ v: CIVariables) -> RunContext? {
    guard v.isTrue("BUILDKITE") else { return nil }
    return RunContext(
      ciSystem: .buildkite, commit: v["BUILDKITE_COMMIT"], branch: v["BUILDKITE_BRANCH"],
      pullRequest: v["BUILDKITE_PULL_REQUEST"].flatMap { $0 == "false" ? nil : $0 },
      pipeline: v["BUILDKITE_BUILD_NUMBER"], attempt: v["BUILDKITE_RETRY_COUNT"],
      job: v["BUILDKITE_LABEL"], runner: v["BUILDKITE_AGENT_NAME"],
      repository: v["BUILDKITE_REPO"], buildURL: v["BUILDKITE_BUILD_URL"])
  }

  /// CircleCI: marker `CIRCLECI=true`. The pull request is `CIRCLE_PR_NUMBER` (forked pull
  /// requests), else the number ending `CIRCLE_PULL_REQUEST`'s URL; the repository is
  /// `$CIRCLE_PROJECT_USERNAME/$CIRCLE_PROJECT_REPONAME`, else `CIRCLE_REPOSITORY_URL`.
  /// CircleCI documents no attempt number and no runner name.
  static func circleCI(_ v: CIVariables) -> RunContext? {
    guard v.isTrue("CIRCLECI") else { return nil }
    var repository = v["CIRCLE_REPOSITORY_URL"]
    if let owner = v["CIRCLE_PROJECT_USERNAME"], let name = v["CIRCLE_PROJECT_REPONAME"] {
      repository = owner + "/" + name
    }
    return RunContext(
      ciSystem: .circleCI, commit: v["CIRCLE_SHA1"], branch: v["CIRCLE_BRANCH"],
      pullRequest: v["CIRCLE_PR_NUMBER"] ?? v["CIRCLE_PULL_REQUEST"].flatMap(trailingNumber),
      pipeline: v["CIRCLE_WORKFLOW_ID"], job: v["CIRCLE_JOB"], repository: repository,
      buildURL: v["CIRCLE_BUILD_URL"])
  }

  /// Jenkins: marker `JENKINS_URL` set. Commit, repository and the last branch choices come
  /// from the Git plugin (`GIT_COMMIT`, `GIT_URL`, `GIT_LOCAL_BRANCH`, `GIT_BRANCH`); a
  /// multibranch pull request gives `CHANGE_ID` and its source branch `CHANGE_BRANCH`.
  /// Jenkins documents no attempt number.
  static func jenkins(_ v: CIVariables) -> RunContext? {
    guard v["JENKINS_URL"] != nil else { return nil }
    return RunContext(
      ciSystem: .jenkins, commit: v["GIT_COMMIT"],
      branch: v.first("CHANGE_BRANCH", "BRANCH_NAME", "GIT_LOCAL_BRANCH", "GIT_BRANCH"),
      pullRequest: v["CHANGE_ID"], pipeline: v["BUILD_NUMBER"], job: v["JOB_NAME"],
      runner: v["NODE_NAME"], repository: v["GIT_URL"], buildURL: v["BUILD_URL"])
  }

  /// Azure Pipelines: marker `TF_BUILD=True`. The build URL is
  /// `$SYSTEM_TEAMFOUNDATIONCOLLECTIONURI<project>/_build/results?buildId=$BUILD_BUILDID`,
  /// the project (`SYSTEM_TEAMPROJECT`) percent-encoded.
  static func azurePipelines(_ v: CIVariables) -> RunContext? {
    guard v.isTrue("TF_BUILD") else { return nil }
    var url: String?
    if let collection = v["SYSTEM_TEAMFOUNDATIONCOLLECTIONURI"],
      let project = v["SYSTEM_TEAMPROJECT"]?.addingPercentEncoding(
        withAllowedCharacters: .urlPathAllowed.subtracting(["/", "?", "#"])),
      let build = v["BUILD_BUILDID"]
    {
      url = trimmingSlashes(collection) + "/" + project + "/_build/results?buildId=" + build
    }
    return RunContext(
      ciSystem: .azurePipelines, commit: v["BUILD_SOURCEVERSION"],
      branch: v.first("SYSTEM_PULLREQUEST_SOURCEBRANCH", "BUILD_SOURCEBRANCH"),
      pullRequest: v.first(
        "SYSTEM_PULLREQUEST_PULLREQUESTNUMBER", "SYSTEM_PULLREQUEST_PULLREQUESTID"),
      pipeline: v["BUILD_BUILDID"], attempt: v["SYSTEM_JOBATTEMPT"],
      job: v["SYSTEM_JOBDISPLAYNAME"], runner: v["AGENT_NAME"],
      repository: v["BUILD_REPOSITORY_NAME"], buildURL: url)
  }

  /// The decimal number between `prefix` and `suffix` of `text`, if that is all there is.
  static func number(in text: String, prefix: String, suffix: String) -> String? {
    guard text.hasPrefix(prefix), text.hasSuffix(suffix),
      text.utf8.count > prefix.utf8.count + suffix.utf8.count
    else { return nil }
    let digits = text.dropFirst(prefix.count).dropLast(suffix.count)
    return isDecimal(digits) ? String(digits) : nil
  }

  /// The decimal number that is the last path component of `url` (`…/pull/123`), if any.
  static func trailingNumber(_ url: String) -> String? {
    let last = trimmingSlashes(url).split(separator: "/").last ?? ""
    return isDecimal(last) ? String(last) : nil
  }

  private static func isDecimal(_ text: Substring) -> Bool {
    !text.isEmpty && text.unicodeScalars.allSatisfy { ("0"..."9").contains($0) }
  }

  private static func trimmingSlashes(_ text: String) -> String {
    var text = Substring(text)
    while text.hasSuffix("/") { text = text.dropLast() }
    return String(text)
  }
}
