/// A baseline chosen per handler (`since=change`): each handler is judged against the
/// baseline's sessions of the commits from its last change point on (by commit, in the
/// search's commit order, never by a session's own clock: a rerun of an older commit stays on
/// the old level), so a level main left behind never dilutes the comparison.
public struct HandlerBaselines: Sendable {
  /// Where one handler's baseline starts, and why.
  public struct Start: Sendable {
    /// The handler.
    public let key: GroupKey
    /// Its newest change (of p50 or error rate), or `nil` when it has none.
    public let change: HandlerChange?
    /// Its baseline sessions; `nil` (no change): every baseline session.
    public let sessions: Set<Int64>?
    /// Whether too few invocations followed the change, so its baseline also takes the last
    /// ``HandlerBaselines/fallbackSessions`` sessions of the selection.
    public let fellBack: Bool
  }

  /// The sessions a handler falls back to when fewer than `--min-samples` invocations followed
  /// its change: the baseline's last 20 (as `last=20`), beside those since the change.
  public static let fallbackSessions = 20

  /// Per handler (as `diff` matches them), its baseline.
  public let starts: [GroupKey: Start]
  /// The change-point search behind it (its method).
  public let changes: ChangesAnswer

  /// Whether `session` is in `key`'s baseline: every session for a handler without a start
  /// (one the search never saw).
  public func includes(_ session: Int64, for key: GroupKey) -> Bool {
    guard let sessions = starts[key]?.sessions else { return true }
    return sessions.contains(session)
  }

  /// One line per handler whose baseline starts after a change, then one per fallback:
  /// `checkout.pay/charge-card: since its p50 change at commit 3f2a91c0d4e5 (8 sessions)`.
  public var notes: [String] {
    starts.values.sorted { $0.key.display < $1.key.display }.compactMap { start in
      guard let change = start.change else { return nil }
      let commit = CommitID.short(change.firstCommit.commit)
      let count = start.sessions?.count ?? 0
      if start.fellBack {
        return "\(start.key.display): fewer invocations since its \(change.metric.rawValue) "
          + "change at commit \(commit) than --min-samples; judged against the last "
          + "\(Self.fallbackSessions) sessions too (\(count) in all)"
      }
      return "\(start.key.display): since its \(change.metric.rawValue) change at commit "
        + "\(commit) (\(count) session\(count == 1 ? "" : "s"))"
    }
  }
}

extension QueryDatabase {
  /// Each handler's baseline among `sessions` (a baseline selection's, oldest first): the
  /// sessions of the commits from its newest change point of p50 or error rate on (in the
  /// series of that change: ``changes(of:filter:options:)`` with the default options), all of
  /// them when it has none, and also the last ``HandlerBaselines/fallbackSessions`` when
  /// fewer than `minSamples` invocations followed the change.
  public func handlerBaselines(
    of sessions: [SessionSummary], filter: QueryFilter, minSamples: Int
  ) throws -> HandlerBaselines {
    let answer = try changes(of: sessions, filter: filter, options: ChangeOptions())
    let ordered = sessions.sorted {
      ($0.startedUnixNanoseconds, $0.id) < ($1.startedUnixNanoseconds, $1.id)
    }
    let fallback = Set(ordered.suffix(HandlerBaselines.fallbackSessions).map(\.id))
    var newest: [GroupKey: (change: HandlerChange, series: HandlerSeries)] = [:]
    for series in answer.series {
      for change in series.changes {
        let known = newest[series.key]?.change
        if known.map({
          ($0.firstCommit.startedUnixNanoseconds, $0.firstCommit.commit) < (
            change.firstCommit.startedUnixNanoseconds, change.firstCommit.commit
          )
        }) ?? true {
          newest[series.key] = (change, series)
        }
      }
    }
    var starts: [GroupKey: HandlerBaselines.Start] = [:]
    for key in Set(answer.series.map(\.key)) {
      guard let (change, series) = newest[key] else {
        starts[key] = .init(key: key, change: nil, sessions: nil, fellBack: false)
        continue
      }
      let since = series.points[change.index...]
      let invocations = since.reduce(0) { SaturatingCount.sum($0, $1.ran) }
      let fellBack = invocations < minSamples
      let ids = Set(since.flatMap(\.sessions))
      starts[key] = .init(
        key: key, change: change, sessions: fellBack ? ids.union(fallback) : ids,
        fellBack: fellBack)
    }
    return HandlerBaselines(starts: starts, changes: answer)
  }
}
