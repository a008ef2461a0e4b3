import SleeveCore
import SleeveStore

/// One pass over the selected sessions' outcomes, tallied by group.
///
/// Handlers are resolved to groups once per session (from the small registrations and controls
/// tables); outcomes are then read with a range scan of the primary key (`id >> 40` is the
/// session) and looked up by registration number in an array, not a hash table.
struct OutcomeScan {
  let database: QueryDatabase
  let sessions: [SessionSummary]
  let grouping: Grouping
  let filter: QueryFilter
  let collectDurations: Bool

  /// The groups that have outcomes, in order of first appearance.
  func run() throws -> [GroupTally] {
    let table = GroupTable()
    try database.translating {
      for session in sessions {
        let routes = try HandlerRoutes(
          database: database, session: session, grouping: grouping, filter: filter,
          group: table.index(of:))
        try scan(session, routes: routes, into: table)
      }
    }
    return table.groups.filter { $0.total > 0 }
  }

  private func scan(_ session: SessionSummary, routes: HandlerRoutes, into table: GroupTable)
    throws
  {
    guard !routes.isEmpty else { return }
    let byEvent = grouping == .event
    let statement = try database.connection.prepare(
      byEvent
        ? """
        SELECT o.registration_id, o.status, o.variant, o.duration_ns, f.events
        FROM outcomes o JOIN fires f ON f.id = o.fire_id WHERE o.id >= ? AND o.id < ?
        """
        : """
        SELECT registration_id, status, variant, duration_ns
        FROM outcomes WHERE id >= ? AND id < ?
        """)
    let (lower, upper) = session.idRange
    try statement.bind(lower, at: 1)
    try statement.bind(upper, at: 2)
    var eventGroups: [Int64: Int32] = [:]
    while try statement.step() {
      let variant = statement.isNull(at: 2) ? -1 : Int(statement.int64(at: 2))
      guard var index = routes.group(of: statement.int64(at: 0), variant: variant) else {
        continue
      }
      if byEvent {
        let events = statement.int64(at: 4)
        if let known = eventGroups[events] {
          index = known
        } else {
          index = table.index(
            of: ControlEvents(rawValue: UInt(truncatingIfNeeded: events)).description)
          eventGroups[events] = index
        }
      }
      let status = Int(statement.int64(at: 1))
      guard status >= 0 && status < 6 else { continue }
      table.groups[Int(index)].counts[status] += 1
      if collectDurations && status <= 1 {
        table.groups[Int(index)].durations.append(statement.int64(at: 3))
      }
    }
  }
}

/// The groups of one scan, created on first use.
///
/// One scan owns its table on one thread and no access outlives a statement, so the dynamic
/// exclusivity check on `groups` (paid per outcome row) is turned off.
final class GroupTable {
  @exclusivity(unchecked) var groups: [GroupTally] = []
  private var indexByKey: [String: Int32] = [:]

  /// The index of the group named `key`, created empty when new.
  func index(of key: String) -> Int32 {
    if let index = indexByKey[key] { return index }
    let index = Int32(groups.count)
    groups.append(GroupTally(key: key))
    indexByKey[key] = index
    return index
  }
}

/// Which group each of a session's handlers feeds, by registration number (the low 40 bits of
/// its id), with one entry per variant for `--by variant`. Filtered-out handlers feed none.
struct HandlerRoutes {
  private var routes: [Route?] = []
  private var overflow: [Int64: Route] = [:]

  private struct Route {
    let ungated: Int32
    let off: Int32
    let on: Int32
  }

  var isEmpty: Bool { routes.allSatisfy { $0 == nil } && overflow.isEmpty }

  init(
    database: QueryDatabase, session: SessionSummary, grouping: Grouping, filter: QueryFilter,
    group: (String) -> Int32
  ) throws {
    let statement = try database.connection.prepare(
      """
      SELECT r.id, r.handler, r.flag_key, c.name FROM registrations r
      JOIN controls c ON c.id = r.control_id WHERE r.id >= ? AND r.id < ?
      """)
    let (lower, upper) = session.idRange
    try statement.bind(lower, at: 1)
    try statement.bind(upper, at: 2)
    while try statement.step() {
      let number = RowID.number(of: statement.int64(at: 0))
      let handler = statement.text(at: 1) ?? ""
      let flag = statement.text(at: 2)
      let control = statement.text(at: 3) ?? ""
      if let wanted = filter.handler, wanted != handler { continue }
      if let wanted = filter.control, wanted != control { continue }
      if let wanted = filter.flag, wanted != flag { continue }
      let route: Route
      switch grouping {
      case .control, .handler, .flag, .session, .event:
        let key =
          switch grouping {
          case .control: control
          case .handler: handler
          case .flag: flag ?? "-"
          case .session: "\(session.id) \(session.name)"
          case .event, .variant: ""
          }
        let index = group(key)
        route = Route(ungated: index, off: index, on: index)
      case .variant:
        if let flag {
          route = Route(ungated: group(flag), off: group(flag + ":off"), on: group(flag + ":on"))
        } else {
          let index = group("-")
          route = Route(ungated: index, off: index, on: index)
        }
      }
      set(route, for: number)
    }
  }

  /// The group of an outcome of registration `id` with `variant` (-1 ungated, 0 off, 1 on).
  func group(of id: Int64, variant: Int) -> Int32? {
    let number = RowID.number(of: id)
    let route = number < routes.count ? routes[Int(number)] : overflow[number]
    guard let route else { return nil }
    switch variant {
    case 0: return route.off
    case 1: return route.on
    default: return route.ungated
    }
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
