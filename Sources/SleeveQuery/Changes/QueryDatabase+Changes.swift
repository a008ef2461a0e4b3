extension QueryDatabase {
  /// The change points of every handler over the commits of the sessions `filter` selects:
  /// the sessions grouped by commit (sessions without one are set aside), commits ordered by
  /// their first session's start, each handler's metric computed per commit over the commit's
  /// pooled invocations, and each series searched (``ChangePointSearch``) as `options` say.
  public func changes(matching filter: QueryFilter, options: ChangeOptions) throws
    -> ChangesAnswer
  {
    try translating {
      let sessions = try sessions(matching: filter)
      return try changes(
        of: sessions, filter: filter, options: options,
        unmatched: try unmatchedFilters(filter, in: sessions))
    }
  }

  /// The change points over `sessions`, as ``changes(matching:options:)`` finds them; the
  /// filter's handler filters and method apply.
  func changes(
    of sessions: [SessionSummary], filter: QueryFilter, options: ChangeOptions,
    unmatched: [String] = []
  ) throws -> ChangesAnswer {
    try translating {
      var byCommit: [String: [SessionSummary]] = [:]
      var withoutCommit: [Int64] = []
      for session in sessions {
        guard let commit = session.context.run.commit?.lowercased(), !commit.isEmpty else {
          withoutCommit.append(session.id)
          continue
        }
        byCommit[commit, default: []].append(session)
      }
      let commits = byCommit.map { commit, sessions in
        CommitSessions(
          commit: commit, started: sessions.map(\.startedUnixNanoseconds).min() ?? 0,
          sessions: sessions)
      }.sorted { ($0.started, $0.commit) < ($1.started, $1.commit) }
      let read = commits.flatMap(\.sessions)
      let plan = try answerPlan(for: read, method: filter.method, grouping: .handler)
      let percentiles = options.metrics.compactMap(\.percentile)

      // Per handler, what each commit's pooled tally gives: only the figures, never the tally
      // (its durations, histogram and failure kinds would be copied a thousand times).
      var pooled: [GroupKey: [CommitRun]] = [:]
      var sites: [GroupKey: String] = [:]
      var order: [GroupKey] = []
      for (position, commit) in commits.enumerated() {
        var scan = OutcomeScan(
          database: self, sessions: commit.sessions, grouping: .handler, filter: filter,
          collectDurations: !percentiles.isEmpty)
        scan.byIdentity = true
        scan.plan = plan
        for var group in try scan.run() where group.ran > 0 {
          // From a summary, straight from its histogram (the row's mean and extremes unused).
          let values: [Double?] =
            if let histogram = group.histogram {
              percentiles.map { histogram.lowerPercentile($0) }
            } else if percentiles.isEmpty {
              []
            } else {
              LatencyRow(&group, percentiles: percentiles).points.map(\.nanoseconds)
            }
          if pooled[group.groupKey] == nil { order.append(group.groupKey) }
          if let site = group.site { sites[group.groupKey] = site }
          pooled[group.groupKey, default: []].append(
            CommitRun(commit: position, ran: group.ran, failed: group.failed, values: values))
        }
      }

      var series: [HandlerSeries] = []
      for key in order {
        let runs = pooled[key] ?? []
        let site = sites[key]
        for metric in options.metrics {
          let slot = metric.percentile.flatMap { percentiles.firstIndex(of: $0) }
          let points: [CommitValue] = runs.compactMap { run in
            let value: Double? =
              if let slot { run.values[slot] } else { Double(run.failed) / Double(run.ran) }
            guard let value else { return nil }
            let commit = commits[run.commit]
            return CommitValue(
              commit: commit.commit, startedUnixNanoseconds: commit.started,
              sessions: commit.sessions.map(\.id), ran: run.ran, failed: run.failed,
              value: value)
          }
          let found = options.search(for: metric, relativeError: plan.relativeError)
            .changePoints(
              in: points.map(\.value),
              counts: metric == .errorRate
                ? points.map { .init(failed: $0.failed, ran: $0.ran) } : nil)
          let changes = found.enumerated().map { position, point in
            HandlerChange(
              key: key, site: site, metric: metric, index: point.index,
              firstCommit: points[point.index], commitBefore: points[point.index - 1],
              comparison: point.comparison, isLatest: position == found.count - 1)
          }
          series.append(
            HandlerSeries(key: key, site: site, metric: metric, points: points, changes: changes))
        }
      }
      let ran = Dictionary(grouping: series, by: \.key).mapValues {
        $0.first?.points.reduce(0) { SaturatingCount.sum($0, $1.ran) } ?? 0
      }
      series.sort { (ran[$1.key] ?? 0, $0.key.display) < (ran[$0.key] ?? 0, $1.key.display) }
      let metricOrder = Dictionary(
        uniqueKeysWithValues: ChangeMetric.allCases.enumerated().map { ($1, $0) })
      let changes = series.flatMap(\.changes).sorted {
        (
          $1.firstCommit.startedUnixNanoseconds, $0.key.display, metricOrder[$0.metric] ?? 0
        ) < ($0.firstCommit.startedUnixNanoseconds, $1.key.display, metricOrder[$1.metric] ?? 0)
      }
      return ChangesAnswer(
        changes: changes, series: series, commits: commits.map(\.commit),
        sessions: read.map(\.id),
        sessionsWithoutCommit: withoutCommit, options: options,
        relativeError: plan.relativeError, unmatchedFilters: unmatched)
    }
  }
}

/// One commit's sessions: its id (lowercased) and when its first session started.
private struct CommitSessions {
  let commit: String
  let started: Int64
  let sessions: [SessionSummary]
}

/// One commit's figures for one handler: invocations that ran and failed, and the percentiles
/// asked for (nanoseconds, in the order asked).
private struct CommitRun {
  let commit: Int
  let ran: Int
  let failed: Int
  let values: [Double?]
}
