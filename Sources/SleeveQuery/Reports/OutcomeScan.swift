import SleeveCore
import SleeveStore

/// One pass over the selected sessions' outcomes, tallied by group.
///
/// Handlers are resolved to groups once per session (from the small registrations and controls
/// tables); outcomes are then read with a range scan of the primary key (`id >> 32` is the
/// session) and looked up by registration number in an array, not a hash table.
///
/// Every outcome is counted in every grouping: one whose registration, control or fire row is
/// missing (lost with a failed write) goes to the group `-` of the key it lacks, unless a
/// `--control`, `--handler` or `--flag` filter is given (an unknown handler matches none).
struct OutcomeScan {
  let database: QueryDatabase
  let sessions: [SessionSummary]
  let grouping: Grouping
  let filter: QueryFilter
  let collectDurations: Bool
  /// Under `.handler`, key handlers by (control, handler) (`GroupKey.handler`), as runs are
  /// matched, instead of by name alone.
  var byIdentity = false
  /// Collect each group's failure kinds and (for handlers) its registration site.
  var collectFailures = false
  /// Raw rows or summaries for every session; decided from `sessions` and `filter.method`
  /// when not given (a caller scanning sessions one at a time passes the plan of them all).
  var plan: AnswerPlan?

  /// The groups that have outcomes, in order of first appearance.
  func run() throws -> [GroupTally] {
    let table = GroupTable()
    try database.translating {
      let plan =
        try plan ?? database.answerPlan(for: sessions, method: filter.method, grouping: grouping)
      let rolledUp = plan.source == .summaries ? try foldRollups(into: table) : []
      for session in sessions where !rolledUp.contains(session.id) {
        let routes = try HandlerRoutes(
          database: database, session: session, grouping: grouping, filter: filter,
          byIdentity: byIdentity, group: table.index(of:),
          site: { index, site in
            if table.groups[Int(index)].site == nil { table.groups[Int(index)].site = site }
          })
        switch plan.source {
        case .rawRows: try scan(session, routes: routes, into: table)
        case .summaries:
          try fold(
            database.summaries(of: session.id), routes: routes, into: table, session: session)
        }
      }
    }
    return table.groups.filter { $0.total > 0 }
  }

  /// Folds the rollup of every block whose summarized sessions are all selected and whose row
  /// still describes them (``SummaryRollups``) into `table`; returns the sessions it covered,
  /// which are not read one by one. Nothing when the scan needs what rollups do not keep
  /// (failure kinds, per-session or per-event groups).
  private func foldRollups(into table: GroupTable) throws -> Set<Int64> {
    guard !collectFailures, grouping != .session, grouping != .event, sessions.count > 1 else {
      return []
    }
    let connection = database.connection
    let blockStates = try SummaryRollups.blockStates(connection: connection)
    guard !blockStates.isEmpty else { return [] }
    var summarized: [Int64: [Int64]] = [:]
    let states: [Int64: SummaryTables.State]
    do {
      states = try SummaryTables.states(connection: connection)
    } catch let error as SummaryError {
      throw QueryError.damagedSummary(error)
    }
    for id in states.keys {
      summarized[SummaryRollups.block(of: id), default: []].append(id)
    }
    let selected = Set(sessions.map(\.id))
    var covered: Set<Int64> = []
    for (block, ids) in summarized.sorted(by: { $0.key < $1.key })
    where blockStates[block] == SummaryRollups.BlockState(holding: ids)
      && ids.allSatisfy(selected.contains)
    {
      let checked: [SummaryRollups.Row]?
      do {
        checked = try SummaryRollups.rows(of: block, connection: connection)
      } catch let error as SummaryError {
        throw QueryError.damagedSummary(error)
      }
      // No checksums (a file from before 0009) or a member changed since: one by one.
      guard let rows = checked else { continue }
      // In stored key order, so which registration site a group shows first never depends
      // on hashing.
      for row in rows {
        guard
          let index = HandlerRoutes.group(
            ofRollup: row.identity, variant: Int(row.variant), grouping: grouping,
            filter: filter, byIdentity: byIdentity, group: table.index(of:),
            site: { index, site in
              if table.groups[Int(index)].site == nil { table.groups[Int(index)].site = site }
            })
        else { continue }
        guard
          table.groups[Int(index)].add(row.summary, durations: collectDurations, failures: false)
        else {
          throw QueryError.damagedSummary(
            .damagedRollup(block: block, detail: "a row with other histogram limits"))
        }
      }
      covered.formUnion(ids)
    }
    return covered
  }

  /// Adds each summary to the group its registration and variant feed.
  private func fold(
    _ summaries: [OutcomeSummary.Key: OutcomeSummary], routes: HandlerRoutes,
    into table: GroupTable, session: SessionSummary
  ) throws {
    for key in summaries.keys.sorted() {
      guard let index = routes.group(of: key.registration, variant: Int(key.variant)) else {
        continue
      }
      let folded = table.groups[Int(index)].add(
        summaries[key]!, durations: collectDurations, failures: collectFailures)
      guard folded else {
        throw QueryError.damagedSummary(
          .damaged(
            session: session.id,
            detail: "the summary of registration \(key.registration) was built with other "
              + "histogram limits than the others"))
      }
    }
  }

  private func scan(_ session: SessionSummary, routes: HandlerRoutes, into table: GroupTable)
    throws
  {
    guard !routes.isEmpty, let ids = session.idRange else { return }
    let byEvent = grouping == .event
    let failures = collectFailures ? ", o.error_type, o.error_message" : ""
    let statement = try database.connection.prepare(
      byEvent
        ? """
        SELECT o.registration_id, o.status, o.variant, o.duration_ns, o.id, f.events\(failures)
        FROM outcomes o LEFT JOIN fires f ON f.id = o.fire_id WHERE o.id BETWEEN ? AND ?
        """
        : """
        SELECT o.registration_id, o.status, o.variant, o.duration_ns, o.id, NULL\(failures)
        FROM outcomes o WHERE o.id BETWEEN ? AND ?
        """)
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    var eventGroups: [Int64: Int32] = [:]
    while try statement.step() {
      let variant = statement.isNull(at: 2) ? -1 : Int(statement.int64(at: 2))
      guard var index = routes.group(of: statement.int64(at: 0), variant: variant) else {
        continue
      }
      if byEvent {
        guard !statement.isNull(at: 5) else {
          index = table.index(of: .unknown)  // the fire's row was lost
          try tally(statement, into: index, of: table)
          continue
        }
        let events = statement.int64(at: 5)
        if let known = eventGroups[events] {
          index = known
        } else {
          index = table.index(
            of: .name(ControlEvents(rawValue: UInt(truncatingIfNeeded: events)).description))
          eventGroups[events] = index
        }
      }
      try tally(statement, into: index, of: table)
    }
  }

  /// Counts the current row (registration, status, variant, duration, id) into group
  /// `index`.
  ///
  /// - Throws: `StoreError.corrupt` naming the row when a duration that would be ranked is not
  ///   an integer (a text would read as 0 and move every percentile).
  private func tally(_ row: Statement, into index: Int32, of table: GroupTable) throws {
    let status = row.int64(at: 1)
    guard table.groups[Int(index)].add(status: status) else { return }
    if collectFailures && status == RecordCodes.Status.failed.rawValue {
      let kind = FailureKind(type: row.text(at: 6), message: row.text(at: 7))
      table.groups[Int(index)].failureKinds[kind, default: 0] += 1
    }
    let ran =
      status == RecordCodes.Status.ok.rawValue || status == RecordCodes.Status.failed.rawValue
    if collectDurations && ran {
      guard case .integer(let duration) = row.value(at: 3) else {
        throw StoreError.corrupt(
          path: database.path,
          detail: "outcomes row \(row.int64(at: 4)) has a duration_ns that is not an integer")
      }
      table.groups[Int(index)].durations.append(duration)
    }
  }
}

/// The groups of one scan, created on first use.
///
/// One scan owns its table on one thread and no access outlives a statement, so the dynamic
/// exclusivity check on `groups` (paid per outcome row) is turned off.
final class GroupTable {
  @exclusivity(unchecked) var groups: [GroupTally] = []
  private var indexByKey: [GroupKey: Int32] = [:]

  /// The index of the group keyed `key`, created empty when new.
  func index(of key: GroupKey) -> Int32 {
    if let index = indexByKey[key] { return index }
    let index = Int32(groups.count)
    groups.append(GroupTally(key: key))
    indexByKey[key] = index
    return index
  }
}

/// Which group each of a session's handlers feeds, by registration number (the low 32 bits of
/// its id), with one entry per variant for `--by variant`. Filtered-out handlers feed none;
/// outcomes of a registration whose row is missing feed the `-` group (unless a handler,
/// control or flag filter is given).
struct HandlerRoutes {
  private var routes: [Route?] = []
  private var overflow: [Int64: Route] = [:]
  /// Where outcomes of an unknown registration go, or `nil` when a filter excludes them.
  private var unknown: Route?

  fileprivate struct Route {
    let ungated: Int32
    let off: Int32
    let on: Int32

    /// A registration the filters exclude.
    static let excluded = Route(ungated: -1, off: -1, on: -1)

    /// The group of an outcome with `variant` (-1 ungated, 0 off, 1 on); `nil` when excluded.
    func group(variant: Int) -> Int32? {
      guard on >= 0 else { return nil }
      switch variant {
      case 0: return off
      case 1: return on
      default: return ungated
      }
    }
  }

  var isEmpty: Bool {
    unknown == nil && routes.allSatisfy { $0 == nil || $0?.on == -1 }
      && overflow.values.allSatisfy { $0.on == -1 }
  }

  init(
    database: QueryDatabase, session: SessionSummary, grouping: Grouping, filter: QueryFilter,
    byIdentity: Bool = false, group: (GroupKey) -> Int32,
    site: (Int32, String?) -> Void = { _, _ in }
  ) throws {
    guard let ids = session.idRange else { return }  // a session that owns no rows
    let sessionKey = GroupKey.session(id: session.id, name: session.name)
    if !filter.narrowsHandlers {
      let index = group(grouping == .session ? sessionKey : .unknown)
      unknown = Route(ungated: index, off: index, on: index)
    }
    let statement = try database.connection.prepare(
      """
      SELECT r.id, r.handler, r.flag_key, c.name, r.identifier, r.site FROM registrations r
      LEFT JOIN controls c ON c.id = r.control_id WHERE r.id BETWEEN ? AND ?
      """)
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    while try statement.step() {
      let number = RowID.number(of: statement.int64(at: 0))
      let identity = SummaryRollups.Identity(
        control: statement.text(at: 3), handler: statement.text(at: 1) ?? "",
        identifier: statement.text(at: 4), site: statement.text(at: 5),
        flag: statement.text(at: 2))
      set(
        Self.route(
          of: identity, grouping: grouping, filter: filter, byIdentity: byIdentity,
          sessionKey: sessionKey, group: group, site: site), for: number)
    }
  }

  /// The groups of a registration (or a rollup row) with `identity`: the one home of which
  /// group each grouping and filter sends a handler's outcomes to.
  fileprivate static func route(
    of identity: SummaryRollups.Identity, grouping: Grouping, filter: QueryFilter,
    byIdentity: Bool, sessionKey: GroupKey, group: (GroupKey) -> Int32,
    site: (Int32, String?) -> Void
  ) -> Route {
    let handler = identity.handler
    let flag = identity.flag
    let control = identity.control
    guard
      filter.selects(
        handler: handler, identifier: identity.identifier, site: identity.site,
        control: control, flag: flag)
    else { return .excluded }
    switch grouping {
    case .control, .handler, .flag, .session, .event:
      let key: GroupKey =
        switch grouping {
        case .control: control.map(GroupKey.name) ?? .unknown
        case .handler: byIdentity ? .handler(control: control, name: handler) : .name(handler)
        case .flag: flag.map(GroupKey.name) ?? .unknown
        case .session: sessionKey
        case .event, .variant: .name("")
        }
      let index = group(key)
      if grouping == .handler { site(index, identity.site) }
      return Route(ungated: index, off: index, on: index)
    case .variant:
      if let flag {
        return Route(
          ungated: group(.cohort(flag: flag, variant: nil)),
          off: group(.cohort(flag: flag, variant: .off)),
          on: group(.cohort(flag: flag, variant: .on)))
      }
      let index = group(.unknown)
      return Route(ungated: index, off: index, on: index)
    }
  }

  /// Where a rollup row's outcomes go (`nil` when the filters exclude them): as a
  /// registration with its identity's would, or as outcomes of a missing registration.
  static func group(
    ofRollup identity: SummaryRollups.Identity, variant: Int, grouping: Grouping,
    filter: QueryFilter, byIdentity: Bool, group: (GroupKey) -> Int32,
    site: (Int32, String?) -> Void
  ) -> Int32? {
    let route: Route
    if identity.isUnknown {
      guard !filter.narrowsHandlers else { return nil }
      let index = group(.unknown)
      route = Route(ungated: index, off: index, on: index)
    } else {
      route = Self.route(
        of: identity, grouping: grouping, filter: filter, byIdentity: byIdentity,
        sessionKey: .unknown, group: group, site: site)
    }
    return route.group(variant: variant)
  }

  /// The group of an outcome of registration `id` with `variant` (-1 ungated, 0 off, 1 on);
  /// `nil` when the filters exclude it.
  func group(of id: Int64, variant: Int) -> Int32? {
    let number = RowID.number(of: id)
    let known = number < routes.count ? routes[Int(number)] : overflow[number]
    guard let route = known ?? unknown else { return nil }
    return route.group(variant: variant)
  }

  private mutating func set(_ route: Route, for number: Int64) {
    if number < 1 << 20 {
      if Int(number) >= routes.count {
        routes.append(contentsOf: repeatElement(nil, count: Int(number) - routes.count + 1))
      }
      routes[Int(number)] = route
    } else {
      overflow[number] = route
    }
  }
}
