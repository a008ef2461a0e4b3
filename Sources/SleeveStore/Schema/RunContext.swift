/// Where a session ran: the commit, branch, pull request, pipeline, attempt, job, runner,
/// repository and build URL of its CI run, recorded in `session_context`.
///
/// The recorder reads it at session start, with no configuration, from a fixed table of
/// documented variables of six CI systems (SleeveRecorder's `RunContext(environment:)`;
/// README, "Where a session ran"); queries read it back (`SessionContext.run`); nothing outside
/// the table is read. `SLEEVE_COMMIT` and `SLEEVE_BRANCH` override the commit and branch (in
/// CI or not), `RecorderOptions.context` overrides the environment, and the `context:` of
/// `startSession` overrides both, field by field: a field an override leaves `nil` keeps the
/// value below it.
///
/// A recorded value is at most `RecordedText.Limit.name` (1,024 UTF-8 bytes, capped as every
/// recorded name is); an empty or whitespace-only value is no value (NULL); `refs/heads/` is
/// taken off a branch. Outside CI, with no override, every field is `nil` and the session has
/// no `session_context` row.
///
/// ```swift
/// var options = RecorderOptions()
/// options.context = RunContext(commit: "4f2a9c1", branch: "main")   // every session
/// let recorder = try Recorder(path: "history.sqlite", options: options)
/// let candidate = try recorder.startSession(
///   name: "checkout", context: RunContext(branch: "feature/pay"))  // this session only
/// ```
public struct RunContext: Sendable, Equatable {
  /// The CI systems whose variables are read.
  public typealias CISystem = RunContextCodes.CISystem

  /// The CI system the context was read from; `nil` outside CI (or when only overrides set
  /// fields).
  public var ciSystem: CISystem?
  /// The commit the run built.
  public var commit: String?
  /// The branch the run built (for a pull request, its source branch where the CI system
  /// gives it), or failing that the ref.
  public var branch: String?
  /// The pull or merge request number, when the run is for one.
  public var pullRequest: String?
  /// The pipeline, workflow run or build id.
  public var pipeline: String?
  /// The attempt (re-run) number, as the CI system counts it.
  public var attempt: String?
  /// The job's name.
  public var job: String?
  /// The runner's (agent's, node's) name.
  public var runner: String?
  /// The repository, as the CI system names it.
  public var repository: String?
  /// A link to the run.
  public var buildURL: String?

  /// A context with the given fields (all `nil` by default: an override that changes
  /// nothing). Values are kept as given; they are capped and blank ones dropped when recorded.
  public init(
    ciSystem: CISystem? = nil, commit: String? = nil, branch: String? = nil,
    pullRequest: String? = nil, pipeline: String? = nil, attempt: String? = nil,
    job: String? = nil, runner: String? = nil, repository: String? = nil,
    buildURL: String? = nil
  ) {
    self.ciSystem = ciSystem
    self.commit = commit
    self.branch = branch
    self.pullRequest = pullRequest
    self.pipeline = pipeline
    self.attempt = attempt
    self.job = job
    self.runner = runner
    self.repository = repository
    self.buildURL = buildURL
  }

  /// This context with every field `other` sets (in recorded form) replacing this one's.
  public func overridden(by other: RunContext) -> RunContext {
    let base = recorded
    let top = other.recorded
    return RunContext(
      ciSystem: top.ciSystem ?? base.ciSystem, commit: top.commit ?? base.commit,
      branch: top.branch ?? base.branch, pullRequest: top.pullRequest ?? base.pullRequest,
      pipeline: top.pipeline ?? base.pipeline, attempt: top.attempt ?? base.attempt,
      job: top.job ?? base.job, runner: top.runner ?? base.runner,
      repository: top.repository ?? base.repository, buildURL: top.buildURL ?? base.buildURL)
  }

  /// Whether no field is known (such a session has no `session_context` row).
  public var isEmpty: Bool { recorded == RunContext() }

  /// The context as it is recorded: every value capped at `RecordedText.Limit.name`, empty
  /// or whitespace-only values `nil`, `refs/heads/` taken off the branch.
  public var recorded: RunContext {
    func clean(_ value: String?) -> String? {
      guard let value, !value.unicodeScalars.allSatisfy(\.properties.isWhitespace) else {
        return nil
      }
      return RecordedText.capped(value, to: .name)
    }
    var branch = self.branch
    if let ref = branch, ref.hasPrefix("refs/heads/") {
      branch = String(ref.dropFirst("refs/heads/".count))
    }
    var result = RunContext()
    result.ciSystem = ciSystem
    result.commit = clean(commit)
    result.branch = clean(branch)
    result.pullRequest = clean(pullRequest)
    result.pipeline = clean(pipeline)
    result.attempt = clean(attempt)
    result.job = clean(job)
    result.runner = clean(runner)
    result.repository = clean(repository)
    result.buildURL = clean(buildURL)
    return result
  }
}
