import SleeveCore
import SleeveStore

/// One pass over the selected sessions' rollout outcomes (`outcome_rollouts`, raw rows only),
/// tallied by flag, served share and variant: the cohorts ``StageCohorts`` describes.
///
/// Handlers are routed as every other answer routes them (``HandlerRoutes``), so `--handler`,
/// `--control` and `--flag` select the same outcomes here as in `flags`. Summaries do not
/// keep the served share, so a session whose raw rows were pruned has no stage cohorts; the
/// caller says so.
struct RolloutScan {
  let database: QueryDatabase
  let sessions: [SessionSummary]
  let filter: QueryFilter

  private struct Tally {
    var group: GroupTally
    var units: Set<Int64> = []
    var outcomes = 0
    var lost = 0
  }

  private struct Key: Hashable {
    let flag: String
    let basisPoints: Int
    let variant: RecordCodes.Variant
  }

  /// Each flag's stage cohorts, by key, each flag's stages in rising share.
  func run() throws -> [String: [StageCohorts]] {
    var tallies: [Key: Tally] = [:]
    var unassigned: [String: [Int: Int]] = [:]
    try database.translating {
      let any = try database.connection.prepare(
        "SELECT EXISTS (SELECT 1 FROM outcome_rollouts WHERE outcome_id BETWEEN ? AND ?)")
      let statement = try database.connection.prepare(
        """
        SELECT o.registration_id, o.status, o.variant, o.duration_ns, r.basis_points,
          r.assignment, o.id
        FROM outcome_rollouts r JOIN outcomes o ON o.id = r.outcome_id
        WHERE r.outcome_id BETWEEN ? AND ?
        """)
      for session in sessions {
        guard let ids = session.idRange else { continue }
        // Most sessions hold no rollout: one probe of the key range, then nothing to route.
        any.reset()
        try any.bind(ids.lowerBound, at: 1)
        try any.bind(ids.upperBound, at: 2)
        guard try any.step(), any.int64(at: 0) != 0 else { continue }
        var keys: [GroupKey] = []
        var indexOfKey: [GroupKey: Int32] = [:]
        let routes = try HandlerRoutes(
          database: database, session: session, grouping: .variant, filter: filter,
          group: { key in
            if let index = indexOfKey[key] { return index }
            keys.append(key)
            indexOfKey[key] = Int32(keys.count - 1)
            return Int32(keys.count - 1)
          })
        let lost =
          session.liveness == .unterminated || session.droppedEvents > 0
          || session.writeErrors > 0
        statement.reset()
        try statement.bind(ids.lowerBound, at: 1)
        try statement.bind(ids.upperBound, at: 2)
        while try statement.step() {
          guard !statement.isNull(at: 2),
            let variant = RecordCodes.Variant(rawValue: statement.int64(at: 2)),
            let index = routes.group(of: statement.int64(at: 0), variant: Int(variant.rawValue)),
            case .cohort(let flag, _) = keys[Int(index)]
          else { continue }
          guard
            let share = try RolloutRecords.basisPoints(
              statement, at: 4, what: "outcome_rollouts row \(statement.int64(at: 6))",
              path: database.path)
          else { continue }
          guard case .integer(let assignment) = statement.value(at: 5) else {
            unassigned[flag, default: [:]][share, default: 0] += 1
            continue
          }
          let key = Key(flag: flag, basisPoints: share, variant: variant)
          var tally =
            tallies.removeValue(forKey: key)
            ?? Tally(group: GroupTally(key: .cohort(flag: flag, variant: variant)))
          tally.outcomes += 1
          if lost { tally.lost += 1 }
          tally.units.insert(assignment)
          let status = statement.int64(at: 1)
          if tally.group.add(status: status),
            status == RecordCodes.Status.ok.rawValue || status == RecordCodes.Status.failed.rawValue
          {
            guard case .integer(let duration) = statement.value(at: 3) else {
              throw StoreError.corrupt(
                path: database.path,
                detail: "outcomes row \(statement.int64(at: 6)) has a duration_ns that is not "
                  + "an integer")
            }
            tally.group.durations.append(duration)
          }
          tallies[key] = tally
        }
      }
    }
    var byFlag: [String: [StageCohorts]] = [:]
    var flags: [String: Set<Int>] = [:]
    for key in tallies.keys { flags[key.flag, default: []].insert(key.basisPoints) }
    for (flag, counts) in unassigned { flags[flag, default: []].formUnion(counts.keys) }
    for (flag, basisPoints) in flags {
      byFlag[flag] = basisPoints.sorted().compactMap { share in
        guard let percent = RolloutPercentage(basisPoints: share) else { return nil }
        func arm(_ variant: RecordCodes.Variant) -> StageCohorts.Arm {
          let tally = tallies[Key(flag: flag, basisPoints: share, variant: variant)]
          return StageCohorts.Arm(
            cohort: FlagReport.Cohort(tally?.group), units: tally?.units.count ?? 0,
            outcomes: tally?.outcomes ?? 0, lostOutcomes: tally?.lost ?? 0)
        }
        return StageCohorts(
          percent: percent, on: arm(.on), off: arm(.off),
          unassigned: unassigned[flag]?[share] ?? 0)
      }
    }
    return byFlag
  }
}
