import SleeveCore
import SleeveStore

extension QueryDatabase {
  /// Every flag defined, changed or gating a handler in the selected sessions, by key; with a
  /// `handler` or `control` filter, only the flags that gate the handlers it selects.
  public func flags(matching filter: QueryFilter) throws -> [FlagReport] {
    try translating {
      let sessions = try sessions(matching: filter)
      return try translating {
        let ids = sessions.map(\.id)
        var definitions: [String: FlagLedger.Definition] = [:]
        let definitionRows = try connection.prepare(
          """
          SELECT key, owner, max_error_rate, max_p99_ns, min_samples FROM flags
          WHERE session_id = ?
          """)
        for id in ids {
          try definitionRows.bind(id, at: 1)
          while try definitionRows.step() {
            let key = definitionRows.text(at: 0) ?? ""
            definitions[key] = try FlagLedger.Definition(
              reading: definitionRows, from: 1, key: key, path: path)
          }
          definitionRows.reset()
        }
        var variantFilter = filter
        variantFilter.session = .all
        var cohorts: [GroupKey: GroupTally] = [:]
        for tally in try OutcomeScan(
          database: self, sessions: sessions, grouping: .variant, filter: variantFilter,
          collectDurations: true
        ).run() {
          cohorts[tally.groupKey] = tally
        }
        let gated = Set(
          cohorts.keys.compactMap { key -> String? in
            guard case .cohort(let flag, _) = key else { return nil }
            return flag
          })
        let history = try changes(in: ids)
        let plans = try RolloutRecords.plans(of: ids, connection: connection)
        let stages = try rolloutStages(in: sessions, filter: variantFilter)
        // Narrowed to some handlers or controls, only the flags that gate them are relevant.
        var keys =
          filter.handler != nil || filter.control != nil
          ? gated.union(stages.keys) : Set(definitions.keys).union(gated).union(history.keys)
        if let wanted = filter.flag { keys = keys.filter { $0 == wanted } }
        return keys.sorted().map { key in
          let definition = definitions[key]
          var report = FlagReport(
            key: key, owner: definition?.owner, maxErrorRate: definition?.maxErrorRate,
            maxP99Nanoseconds: definition?.maxP99Nanoseconds, minSamples: definition?.minSamples,
            history: history[key] ?? [], on: .init(cohorts[.cohort(flag: key, variant: .on)]),
            off: .init(cohorts[.cohort(flag: key, variant: .off)]))
          report.rollout = plans[key].flatMap {
            RolloutPlan(recordedUnit: $0.unit, salt: $0.salt, stages: $0.stages)
          }
          report.severities = CheckSeverity.recorded(plans[key]?.severities ?? [:])
          report.stages = stages[key] ?? []
          return report
        }
      }
    }
  }

  /// The cohorts of every share a percentage rollout served in `sessions`, by flag key, each
  /// flag's shares rising (raw rows; a pruned session contributes none).
  public func rolloutStages(in sessions: [SessionSummary], filter: QueryFilter) throws
    -> [String: [StageCohorts]]
  {
    var all = filter
    all.session = .all
    return try translating {
      try RolloutScan(database: self, sessions: sessions, filter: all).run()
    }
  }

  /// Flag changes recorded in `sessions` or from the command line, by key, oldest first.
  private func changes(in sessions: [Int64]) throws -> [String: [FlagReport.Change]] {
    let statement = try connection.prepare(
      """
      SELECT e.key, e.state, e.reason, e.actor, e.at_unix_ns, e.session_id, r.basis_points
      FROM flag_events e LEFT JOIN flag_rollouts r ON r.flag_event_id = e.id
      ORDER BY e.at_unix_ns, e.id
      """)
    let selected = Set(sessions)
    var changes: [String: [FlagReport.Change]] = [:]
    while try statement.step() {
      let session = statement.optionalInt64(at: 5)
      if let session, !selected.contains(session) { continue }
      let key = statement.text(at: 0) ?? ""
      let share = try RolloutRecords.basisPoints(
        statement, at: 6, what: "flag '\(key)'", path: path
      ).flatMap(RolloutPercentage.init(basisPoints:))
      changes[key, default: []].append(
        FlagReport.Change(
          state: share == nil
            ? statement.text(at: 1) ?? "" : RecordCodes.FlagChangeState.rollingOut.name,
          reason: statement.text(at: 2), actor: statement.text(at: 3),
          atUnixNanoseconds: statement.int64(at: 4), session: session, percent: share))
    }
    return changes
  }
}
