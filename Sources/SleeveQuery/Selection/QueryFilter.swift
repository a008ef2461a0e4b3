/// Which sessions a query reads.
public enum SessionSelector: Equatable, Sendable {
  /// The most recently started session (among those the other filters allow).
  case last
  /// Every session the other filters allow.
  case all
  /// One session by row id.
  case id(Int64)
  /// One session by UUID (case-insensitive).
  case uuid(String)

  /// Parses `last`, `all`, a row id or a UUID; `nil` for anything else.
  public init?(_ text: String) {
    switch text.lowercased() {
    case "last": self = .last
    case "all": self = .all
    case let value where Int64(value).map({ $0 > 0 }) == true: self = .id(Int64(value)!)
    case let value where value.count == 36 && value.split(separator: "-").count == 5:
      self = .uuid(value)
    default: return nil
    }
  }
}

/// The filters every query accepts. Values are always bound as SQL parameters, never spliced
/// into SQL text.
public struct QueryFilter: Equatable, Sendable {
  /// Which sessions.
  public var session: SessionSelector = .last
  /// Sessions whose name matches this glob (`*`, `?`, `[…]`, case-sensitive).
  public var nameGlob: String?
  /// Sessions started at or after this time (Unix nanoseconds).
  public var sinceUnixNanoseconds: Int64?
  /// Sessions that built this commit: its full id, or a prefix of at least
  /// ``minimumCommitPrefix`` characters, compared case-insensitively (as `git` takes them).
  public var commit: String?
  /// Sessions that built this branch, exactly.
  public var branch: String?
  /// Sessions that recorded a test whose full id or display name matches this glob.
  public var testGlob: String?
  /// Sessions with this tag (a session tag or a recorded test's tag), exactly.
  public var tag: String?
  /// At most this many sessions: the most recent ones the other filters allow (`--last N`).
  public var limit: Int?

  /// Only sessions numbered in these ranges: how a gate over a local file and a shared history
  /// (`--history URL`) keeps its candidate to the file's sessions and its baseline to the
  /// history's, both read from one scratch file. `nil`: every number.
  package var sessionNumbers: [ClosedRange<Int64>]?

  /// A baseline selection's `since=change`: each handler is judged against the sessions since
  /// its own last change point (``QueryDatabase/handlerBaselines(of:filter:minSamples:)``).
  /// Read only by comparisons; ``QueryDatabase/sessions(matching:checkingSummaries:)``
  /// selects the sessions the change points are searched in, as if it were not set.
  public var sinceChange = false

  /// The shortest commit prefix `commit` matches by (`git`'s shortest abbreviation).
  public static let minimumCommitPrefix = 4

  /// Only handlers on controls with this name.
  public var control: String?
  /// Only this handler: matched against its name as reports show it (its `id:`, else its
  /// registration site; a target-action's prefixed by its type, `Router.dismiss`), its bare
  /// `id:` (`dismiss`) and its registration site (`File.swift:42`), exactly.
  public var handler: String?
  /// Only handlers gated by this flag.
  public var flag: String?

  /// Which rows the answer reads (`--exact`, `--method`): summaries whenever every selected
  /// session has them, by default.
  public var method: AnswerMethod = .automatic

  /// No filters: the last session, every handler.
  public init() {}

  /// Whether a filter on where sessions ran (commit, branch, test or tag) is given.
  public var narrowsByContext: Bool {
    commit != nil || branch != nil || testGlob != nil || tag != nil
  }

  /// This filter's handler filters (`--control`, `--handler`, `--flag`) alone, over every
  /// session: what a second selection (a baseline, the flaky window) shares with it.
  public var handlersOnly: QueryFilter {
    var only = QueryFilter()
    (only.session, only.control, only.handler, only.flag) = (.all, control, handler, flag)
    only.method = method
    return only
  }

  /// Whether a handler, control or flag filter is given.
  public var narrowsHandlers: Bool { control != nil || handler != nil || flag != nil }

  /// Whether the handler filters select a registration: the one home of what `--handler`,
  /// `--control` and `--flag` match.
  func selects(
    handler name: String, identifier: String?, site: String?, control: String?, flag: String?
  ) -> Bool {
    if let wanted = handler, wanted != name, wanted != identifier, wanted != site {
      return false
    }
    if let wanted = self.control, wanted != control { return false }
    if let wanted = self.flag, wanted != flag { return false }
    return true
  }
}

/// How outcomes are grouped.
public enum Grouping: String, CaseIterable, Sendable {
  /// By control name.
  case control
  /// By handler name.
  case handler
  /// By the events of the fire (e.g. `touchUpInside`).
  case event
  /// By gating flag (`-` for ungated handlers).
  case flag
  /// By flag and variant (`new-checkout:on`).
  case variant
  /// By session.
  case session
}
