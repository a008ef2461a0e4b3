/// One handler across sessions in time order: its error rate and p99 in each session that ran
/// it, for the report's trend section.
public struct HandlerTrend: Sendable {
  /// One session's numbers.
  public struct Point: Sendable {
    /// The session.
    public let session: Int64
    /// Whether the session is one of the baseline's (this handler's, under `since=change`).
    public let isBaseline: Bool
    /// Whether the session is a baseline session this handler's `since=change` baseline leaves
    /// out (it ran before the handler's last change).
    public let isBeforeChange: Bool
    /// Invocations that ran.
    public let n: Int
    /// failed / n.
    public let errorRate: Double
    /// The 99th percentile, nanoseconds.
    public let p99: Double?
  }

  /// The handler, as runs are matched (control, handler).
  public let key: GroupKey
  /// Its invocations over every session.
  public let n: Int
  /// One point per session that ran it, oldest first.
  public let points: [Point]
  /// The change points of its p99 and error rate inside the baseline, oldest first
  /// (``QueryDatabase/changes(matching:options:)`` with ``ChangeOptions``' defaults otherwise).
  public var changes: [HandlerChange] = []
}

extension QueryDatabase {
  /// Each handler's trend over `sessions` (oldest first), most invoked handler first, with the
  /// change points of its p99 and error rate over the baseline's sessions.
  ///
  /// - Parameters:
  ///   - baseline: The ids of the sessions to mark as baseline.
  ///   - handlerBaselines: With `since=change`, each handler's own baseline: a baseline
  ///     session outside it is drawn as neither side's.
  public func trends(
    of sessions: [SessionSummary], filter: QueryFilter, baseline: Set<Int64>,
    handlerBaselines: HandlerBaselines? = nil
  ) throws -> [HandlerTrend] {
    var points: [GroupKey: [HandlerTrend.Point]] = [:]
    var order: [GroupKey] = []
    let plan = try answerPlan(for: sessions, method: filter.method, grouping: .handler)
    for session in sessions {
      for tallies in try tallies(
        of: [session], filter: filter, by: .handler, collectDurations: true, plan: plan)
      {
        for var group in tallies.groups where group.ran > 0 {
          if points[group.groupKey] == nil { order.append(group.groupKey) }
          let p99 = LatencyRow(&group, percentiles: [99]).points.first?.nanoseconds
          let inBaseline = baseline.contains(session.id)
          let inOwn = handlerBaselines?.includes(session.id, for: group.groupKey) ?? true
          points[group.groupKey, default: []].append(
            HandlerTrend.Point(
              session: session.id, isBaseline: inBaseline && inOwn,
              isBeforeChange: inBaseline && !inOwn,
              n: group.ran,
              errorRate: Double(group.failed) / Double(group.ran), p99: p99))
        }
      }
    }
    var options = ChangeOptions()
    options.metrics = [.p99, .errorRate]
    let baselineSessions = sessions.filter { baseline.contains($0.id) }
    let changes =
      baselineSessions.isEmpty
      ? [:]
      : Dictionary(
        grouping: try self.changes(of: baselineSessions, filter: filter, options: options)
          .changes.reversed(), by: \.key)
    return order.map { key in
      let series = points[key] ?? []
      var trend = HandlerTrend(key: key, n: series.reduce(0) { $0 + $1.n }, points: series)
      trend.changes = changes[key] ?? []
      return trend
    }.sorted { ($1.n, $0.key.display) < ($0.n, $1.key.display) }
  }
}
