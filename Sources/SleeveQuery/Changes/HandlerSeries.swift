/// One commit's invocations of a handler: the sessions of the commit pooled.
public struct CommitValue: Equatable, Sendable {
  /// The commit (lowercased).
  public let commit: String
  /// When its first session started, Unix nanoseconds: the commits' order.
  public let startedUnixNanoseconds: Int64
  /// Its sessions (the commit's, in the selection).
  public let sessions: [Int64]
  /// Invocations that ran.
  public let ran: Int
  /// Invocations that failed.
  public let failed: Int
  /// The metric's value: nanoseconds for a percentile, failed / ran for the error rate.
  public let value: Double
}

/// One handler's metric over the commits where it ran, oldest first, and its change points.
public struct HandlerSeries: Sendable {
  /// The handler, as `diff` matches it (control, handler).
  public let key: GroupKey
  /// Where it was registered, when recorded.
  public let site: String?
  /// What is followed.
  public let metric: ChangeMetric
  /// One value a commit, in commit order.
  public let points: [CommitValue]
  /// Its change points, oldest first.
  public let changes: [HandlerChange]
}

/// One change point of one handler's metric.
public struct HandlerChange: Sendable {
  /// The handler.
  public let key: GroupKey
  /// Where it was registered, when recorded.
  public let site: String?
  /// What changed.
  public let metric: ChangeMetric
  /// The position of ``firstCommit`` in the handler's series.
  public let index: Int
  /// The first commit at the new level.
  public let firstCommit: CommitValue
  /// The last commit at the old level.
  public let commitBefore: CommitValue
  /// The levels on each side (to the neighbouring change points) and the test's p-value.
  public let comparison: SegmentComparison
  /// Whether this is the handler's newest change of this metric: the level it runs at now.
  public let isLatest: Bool

  /// The change relative to the level before (`nil` when that level is 0): latency's
  /// +25.00%, an error rate's relative rise.
  public var relativeChange: Double? { comparison.relativeChange }
}

/// What `sleeve changes` found.
public struct ChangesAnswer: Sendable {
  /// Every change point, newest first (by its first commit's start, then handler and metric).
  public let changes: [HandlerChange]
  /// Every handler's series, most invoked first.
  public let series: [HandlerSeries]
  /// The commits, in order.
  public let commits: [String]
  /// The sessions read (those with a commit).
  public let sessions: [Int64]
  /// Sessions that recorded no commit: not placed in any series.
  public let sessionsWithoutCommit: [Int64]
  /// The options searched with.
  public let options: ChangeOptions
  /// The percentiles' relative error (summaries), `nil` when exact.
  public let relativeError: Double?
  /// Filters that matched nothing, as notes.
  public let unmatchedFilters: [String]

  /// How the changes were found, as outputs print it.
  public var method: String { options.method(relativeError: relativeError) }
}
