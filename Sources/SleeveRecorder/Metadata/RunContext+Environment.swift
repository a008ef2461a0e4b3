import SleeveStore

extension RunContext {
  /// The context `environment` describes: the first CI system of the table whose marker
  /// variable is set (GitHub Actions, GitLab CI, Buildkite, CircleCI, Jenkins, Azure
  /// Pipelines, in that order), its fields read from that system's documented variables only,
  /// then `SLEEVE_COMMIT` and `SLEEVE_BRANCH` over the commit and branch. The result is
  /// recorded form: capped, blank values `nil`, `refs/heads/` off the branch.
  ///
  /// Pure: reads only the dictionary given (tests pass fixture environments; the recorder
  /// passes the process's).
  public init(environment: [String: String]) {
    let variables = CIVariables(environment)
    var context = CIVariables.table.lazy.compactMap { $0(variables) }.first ?? RunContext()
    context.commit = variables["SLEEVE_COMMIT"] ?? context.commit
    context.branch = variables["SLEEVE_BRANCH"] ?? context.branch
    self = context.recorded
  }
}
