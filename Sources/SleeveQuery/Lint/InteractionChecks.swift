import SleeveStore

/// The checks that read a session's user interactions (schema 0004): dead, rage and error
/// interactions. An interaction's fires are found by the migration's rule; its facts are
/// the facts of those fires (did a handler run, did one fail, which one failed).
///
/// Every finding names the registration a developer should open: an error interaction the
/// handler that threw (one finding per throwing handler), a dead or rage interaction the
/// control's wiring (``LintSessionData/wiring()``).
struct InteractionChecks {
  let options: LintOptions
  /// Only this control's interactions (`--control`), when given.
  var control: String?
  /// How many times over a session's interactions may name each of its fires, in all: a
  /// recording reaches it only with interactions nested 63 deep (the default nesting limit
  /// is 32).
  static let spanPerFire: Int64 = 64

  /// Per control: interactions, dead ones, failed ones (by the handler that threw, `-1`
  /// when a damaged file names none of the session's), and the rage window.
  private struct ControlState {
    var interactions: Int64 = 0
    var dead: Int64 = 0
    var failedBy: [Int: Int64] = [:]
    var rage = RageWindow()
  }

  /// Streams the session's interactions (in the order they ended) into the three checks.
  /// Control totals go to `totals` so a share is over every session's interactions.
  func run(
    _ data: LintSessionData, database: QueryDatabase, into sink: inout LintObservations,
    totals: inout [String: Int64]
  ) throws {
    guard let ids = data.session.idRange else { return }
    let rows = try database.connection.prepare(
      """
      SELECT control_id, was_enabled, depth, first_fire_id, last_fire_id, fire_count, ended_ns,
        at_ns
      FROM interactions WHERE id BETWEEN ? AND ? ORDER BY id
      """)
    try rows.bind(ids.lowerBound, at: 1)
    try rows.bind(ids.upperBound, at: 2)
    let members = try database.connection.prepare(
      """
      SELECT id, control_id = ? AND depth = ? AND origin = 0 FROM fires WHERE id BETWEEN ? AND ?
      """)
    // A session that dropped or lost events may have interactions some of whose fires were
    // never written (recorders before the buffer dropped such interactions with their fires).
    let lossy = data.session.droppedEvents > 0 || data.session.failedEvents > 0
    // Reading an interaction costs the fires in its range. A recording's ranges overlap only
    // by nesting (an interaction holds the deeper ones its handlers sent), so all of them
    // hold at most the fires times the depth reached: a file whose ranges hold more than
    // ``spanPerFire`` times its fires is damaged, and says so, rather than taking
    // interactions × fires.
    let fires = Int64(data.session.fires)
    let (product, overflow) = (fires + 1).multipliedReportingOverflow(by: Self.spanPerFire)
    let budget = overflow ? Int64.max : product
    var read: Int64 = 0
    func spend(_ cost: Int64) throws {
      read = LintObservation.saturatingSum(read, cost)
      guard read <= budget, read < Int64.max else {
        throw StoreError.corrupt(
          path: database.path,
          detail:
            "session \(data.session.id)'s interactions name its fires more than "
            + "\(Self.spanPerFire) times over")
      }
    }
    var states: [Int64: ControlState] = [:]
    while try rows.step() {
      let control = rows.int64(at: 0)
      // Only the session's own fires count: a damaged row naming other sessions' fires (or
      // none, or running backwards) is read within the session's ids, so the arithmetic
      // below cannot overflow, and a row that names none of its fires is not evidence.
      let first = max(rows.int64(at: 3), ids.lowerBound)
      let last = min(rows.int64(at: 4), ids.upperBound)
      let count = rows.int64(at: 5)
      guard first <= last else { continue }
      var facts: UInt8 = 0
      // The handlers that threw in its fires (an interaction has few).
      var throwers: [Int] = []
      func add(_ fire: Int64) {
        let fireFacts = data.facts(of: fire)
        facts |= fireFacts
        if fireFacts & FireFacts.failed != 0 {
          let thrower = data.failingHandler(of: fire) ?? -1
          if !throwers.contains(thrower) { throwers.append(thrower) }
        }
      }
      if !lossy, last - first + 1 == count, count <= Int64(data.session.fires) {
        // No other fire in between (nothing nested): the range is the interaction.
        try spend(count)
        for fire in first...last { add(fire) }
      } else {
        // Every fire in the range is read (SQLite visits them all anyway), so the cost is
        // counted exactly; its own are those of its control at its depth, sent as interaction.
        members.reset()
        try members.bind(control, at: 1)
        try members.bind(rows.int64(at: 2), at: 2)
        try members.bind(first, at: 3)
        try members.bind(last, at: 4)
        var found: Int64 = 0
        while try members.step() {
          try spend(1)
          guard members.int64(at: 1) != 0 else { continue }
          found += 1
          add(members.int64(at: 0))
        }
        // Naming no written fire is no evidence; in a lossy session, neither is missing some
        // of its fires, unless one that was written ran a handler.
        guard found > 0, !lossy || found >= count || facts & FireFacts.ran != 0 else {
          continue
        }
      }
      let dead = rows.int64(at: 1) != 0 && facts & FireFacts.ran == 0
      let failed = facts & FireFacts.failed != 0
      var state = states[control] ?? ControlState()
      state.interactions += 1
      if dead { state.dead += 1 }
      for thrower in throwers { state.failedBy[thrower, default: 0] += 1 }
      // Rage is the user repeating: an interaction a handler sent (deeper than 1, a nested
      // `tap()`) is not the user's, so it is not in the burst window.
      if rows.int64(at: 2) <= 1 {
        state.rage.add(
          startedAt: rows.int64(at: 7), endedAt: rows.int64(at: 6), dead: dead, failed: failed,
          options: options)
      }
      states[control] = state
    }
    let wiring = states.isEmpty ? [:] : data.wiring()
    for (control, state) in states {
      let name = data.controlName(control)
      if let wanted = self.control, wanted != name { continue }
      totals[name, default: 0] += state.interactions
      let session: Set<Int64> = [data.session.id]
      let site = wiring[control].map { data.registrations[$0].site }
      if state.dead > 0 {
        sink.add(
          LintObservationKey(check: .deadInteraction, control: name, handler: nil, site: site),
          LintObservation(numbers: [state.dead], sessions: session))
      }
      for (thrower, failed) in state.failedBy {
        let handler =
          data.registrations.indices.contains(thrower)
          ? data.registrations[thrower] : nil
        sink.add(
          LintObservationKey(
            check: .errorInteraction, control: name, handler: handler?.handler,
            site: handler?.site ?? site),
          LintObservation(numbers: [failed], sessions: session))
      }
      let rage = state.rage
      if rage.bursts > 0 {
        sink.add(
          LintObservationKey(check: .rageInteraction, control: name, handler: nil, site: site),
          LintObservation(
            numbers: [rage.bursts, rage.largest, rage.members, rage.dead, rage.failed],
            sessions: session))
      }
    }
  }
}

/// Rage bursts on one control: an interaction is in a burst when it and the `count - 1`
/// before it ended within `window`, each started at least the minimum gap after the one
/// before it (a person's pace); a burst is a run of such interactions (and the ones that
/// started it). An interaction that starts sooner after the one before (a machine's pace, or
/// a damaged time going backwards) ends the burst and is in none. Keeps only the last `count`
/// interactions: memory does not grow with the session.
struct RageWindow {
  private var recent: [(at: Int64, dead: Bool, failed: Bool, counted: Bool)] = []
  private var lastStart: Int64?
  private var current: Int64 = 0
  private(set) var bursts: Int64 = 0
  private(set) var largest: Int64 = 0
  private(set) var members: Int64 = 0
  private(set) var dead: Int64 = 0
  private(set) var failed: Int64 = 0

  /// Adds the next interaction, started at `startedAt` and ended at `endedAt` (nanoseconds,
  /// in the order interactions end).
  mutating func add(
    startedAt: Int64, endedAt at: Int64, dead isDead: Bool, failed isFailed: Bool,
    options: LintOptions
  ) {
    let needed = max(options.rageCount, 1)
    let window = options.rageWindowNanoseconds
    defer { lastStart = startedAt }
    if let lastStart {
      // Damaged times far apart must not wrap into a person's pace.
      let (gap, overflow) = startedAt.subtractingReportingOverflow(lastStart)
      guard !overflow, gap >= options.rageMinimumGapNanoseconds else {
        recent.removeAll()
        current = 0
        return
      }
    }
    recent.append((at, isDead, isFailed, false))
    if recent.count > needed { recent.removeFirst(recent.count - needed) }
    // Damaged times far apart must not wrap into the window.
    let (span, overflow) = at.subtractingReportingOverflow(recent[0].at)
    let spanned = recent.count == needed && !overflow && span >= 0 && span <= window
    guard spanned else {
      current = 0
      return
    }
    if current == 0 { bursts += 1 }
    for index in recent.indices where !recent[index].counted {
      recent[index].counted = true
      current += 1
      members += 1
      if recent[index].dead { dead += 1 }
      if recent[index].failed { failed += 1 }
    }
    largest = max(largest, current)
  }
}
