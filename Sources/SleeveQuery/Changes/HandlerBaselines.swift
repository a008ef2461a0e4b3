/// A baseline chosen per handler (`since=change`): each handler is judged against the
/// baseline's sessions that started at or after its last change point (the first session of
/// the change's first commit), so a level main left behind never dilutes the comparison.
public struct HandlerBaselines: Sendable {
  /// Where one handler's baseline starts, and why.
  public struct Start: Sendable {
    /// The handler.
    public let key: GroupKey
    /// Its newest change (of p50 or error rate), or `nil` when it has none.
    public let change: HandlerChange?
    /// Its baseline sessions.
    public let sessions: Set<Int64>
    /// Whether too few invocations followed the change, so its baseline is the last
    /// ``HandlerBaselines/fallbackSessions`` sessions instead.
    public let fellBack: Bool
  }

  /// The sessions a handler falls back to when fewer than `--min-samples` invocations followed
  /// its change: the baseline's last 20 (as `last=20`).
  public static let fallbackSessions = 20

  /// Per handler (as `diff` matches them), its baseline.
  public let starts: [GroupKey: Start]
  /// The change-point search behind it (its method).
  public let changes: ChangesAnswer

  /// Whether `session` is in `key`'s baseline: every session for a handler without a start
  /// (one the search never saw).
  public func includes(_ session: Int64, for key: GroupKey) -> Bool {
    starts[key]?.sessions.contains(session) ?? true
  }

  /// One line per handler whose baseline starts after a change, then one per fallback:
  /// `checkout.pay/charge-card: since its p50 change at commit 3f2a91c0d4e5 (8 sessions)`.
  public var notes: [String] {
    starts.values.sorted { $0.key.display < $1.key.display }.compactMap { start in
      guard let change = start.change else { return nil }
      let commit = String(
        String.UnicodeScalarView(change.firstCommit.commit.unicodeScalars.prefix(12)))
      if start.fellBack {
        return "\(start.key.display): fewer invocations since its \(change.metric.rawValue) "
          + "change at commit \(commit) than --min-samples; judged against the last "
          + "\(Self.fallbackSessions) sessions instead"
      }
      return "\(start.key.display): since its \(change.metric.rawValue) change at commit "
        + "\(commit) (\(start.sessions.count) session\(start.sessions.count == 1 ? "" : "s"))"
    }
  }
}

extension QueryDatabase {
  /// Each handler's baseline among `sessions` (a baseline selection's, oldest first): the
  /// sessions since its newest change point of p50 or error rate (``changes(of:filter:options:)``
  /// with the default options), all of them when it has none, and the last
  /// ``HandlerBaselines/fallbackSessions`` when fewer than `minSamples` invocations followed
  /// the change.
  public func handlerBaselines(
    of sessions: [SessionSummary], filter: QueryFilter, minSamples: Int
  ) throws -> HandlerBaselines {
    let answer = try changes(of: sessions, filter: filter, options: ChangeOptions())
    let ordered = sessions.sorted {
      ($0.startedUnixNanoseconds, $0.id) < ($1.startedUnixNanoseconds, $1.id)
    }
    let fallback = Set(ordered.suffix(HandlerBaselines.fallbackSessions).map(\.id))
    var starts: [GroupKey: HandlerBaselines.Start] = [:]
    for key in Set(answer.series.map(\.key)) {
      let series = answer.series.filter { $0.key == key }
      let newest = series.flatMap(\.changes).max {
        ($0.firstCommit.startedUnixNanoseconds, $0.index) < (
          $1.firstCommit.startedUnixNanoseconds, $1.index
        )
      }
      guard let newest else {
        starts[key] = .init(
          key: key, change: nil, sessions: Set(sessions.map(\.id)), fellBack: false)
        continue
      }
      let from = newest.firstCommit.startedUnixNanoseconds
      let since = ordered.filter { $0.startedUnixNanoseconds >= from }.map(\.id)
      let invocations =
        series.first { $0.metric == .errorRate }?.points
        .filter { $0.startedUnixNanoseconds >= from }
        .reduce(0) { SaturatingCount.sum($0, $1.ran) } ?? 0
      let fellBack = invocations < minSamples
      starts[key] = .init(
        key: key, change: newest, sessions: fellBack ? fallback : Set(since), fellBack: fellBack)
    }
    return HandlerBaselines(starts: starts, changes: answer)
  }
}
