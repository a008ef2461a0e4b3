import SleeveStore

/// The checks that read a session's outcome tallies: orphaned handlers, main-thread stalls,
/// nesting pressure. None needs schema 0004.
enum HandlerChecks {
  /// Handlers whose owner was found gone at a fire, counted with the fires of their control
  /// on their events from that one on. Numbers: fires missed, fires it was present for.
  static func orphanedHandlers(
    _ data: LintSessionData, database: QueryDatabase, into sink: inout LintObservations
  ) throws {
    let orphans = data.tallies.indices.filter {
      data.tallies[$0].ownerReleasedFire != nil && data.registrations[$0].isSelected
    }
    guard !orphans.isEmpty, let ids = data.session.idRange else { return }
    let start = orphans.compactMap { data.tallies[$0].ownerReleasedFire }.min() ?? ids.lowerBound
    var missed = Array(repeating: Int64(0), count: orphans.count)
    let slotsByControl = Dictionary(grouping: orphans.indices) {
      data.registrations[orphans[$0]].control
    }
    let statement = try database.connection.prepare(
      "SELECT id, control_id, events FROM fires WHERE id BETWEEN ? AND ?")
    try statement.bind(start, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    while try statement.step() {
      guard let slots = slotsByControl[statement.int64(at: 1)] else { continue }
      let fire = statement.int64(at: 0)
      let events = UInt(truncatingIfNeeded: statement.int64(at: 2))
      for slot in slots {
        let index = orphans[slot]
        if data.registrations[index].events & events != 0,
          let from = data.tallies[index].ownerReleasedFire, fire >= from
        {
          missed[slot] += 1
        }
      }
    }
    for (slot, index) in orphans.enumerated() where missed[slot] > 0 {
      let registration = data.registrations[index]
      sink.add(
        LintObservationKey(
          check: .orphanedHandler, control: data.controlName(registration.control),
          handler: registration.handler, site: registration.site),
        LintObservation(
          numbers: [missed[slot], Int64(data.tallies[index].reached)],
          sessions: [data.session.id], texts: [registration.anchorType ?? "its owner"]))
    }
  }

  /// Synchronous handlers with any invocation over the frame budget, with what is needed
  /// for an exact p99 later. Numbers: synchronous invocations, largest within the budget.
  static func stalls(_ data: LintSessionData, into sink: inout LintObservations) {
    for (index, tally) in data.tallies.enumerated()
    where !tally.overBudget.isEmpty && data.registrations[index].isSelected {
      let registration = data.registrations[index]
      sink.add(
        LintObservationKey(
          check: .mainThreadStall, control: data.controlName(registration.control),
          handler: registration.handler, site: registration.site),
        LintObservation(
          numbers: [Int64(tally.synchronous), tally.largestWithinBudget ?? -1],
          sessions: [data.session.id], durations: tally.overBudget))
    }
  }

  /// Fires refused at the nesting limit, per control, with the chain of one of them and the
  /// handler that re-sent it (``reSenders(of:data:database:)``). Numbers: refused outcomes,
  /// the chain's depth.
  static func nestingPressure(
    _ data: LintSessionData, database: QueryDatabase, into sink: inout LintObservations
  ) throws {
    var byControl: [Int64: (refused: Int64, fire: Int64, handler: Int)] = [:]
    for (index, tally) in data.tallies.enumerated()
    where tally.refused > 0 && data.registrations[index].isSelected {
      let control = data.registrations[index].control
      let known = byControl[control]
      byControl[control] = (
        (known?.refused ?? 0) + Int64(tally.refused),
        min(known?.fire ?? .max, tally.refusedFire ?? .max), known?.handler ?? index
      )
    }
    guard !byControl.isEmpty else { return }
    var chains: [Int64: (text: String, depth: Int, sentFrom: SentFrom?)] = [:]
    for (control, refused) in byControl {
      chains[control] = try chain(of: refused.fire, data: data, database: database)
    }
    let senders = try reSenders(
      of: chains.values.compactMap(\.sentFrom), data: data, database: database)
    for (control, refused) in byControl {
      guard let chain = chains[control] else { continue }
      // The handler that re-sent the refused fire, else (an async send, a damaged file) the
      // first handler the limit refused on the control.
      let handler = data.registrations[
        chain.sentFrom.flatMap { senders[$0] } ?? refused.handler]
      sink.add(
        LintObservationKey(
          check: .nestingPressure, control: data.controlName(control),
          handler: handler.handler, site: handler.site),
        LintObservation(
          numbers: [refused.refused, Int64(chain.depth)], sessions: [data.session.id],
          texts: [chain.text]))
    }
  }

  /// A refused fire's parent fire and when the refused fire began: the handler that re-sent
  /// it was running in that parent at that time.
  struct SentFrom: Hashable {
    let parent: Int64
    let at: Int64
  }

  /// The handler (an index into the session's registrations) that sent each refused fire:
  /// the one of its parent fire's handlers that ran (ok or failed) while the refused fire
  /// began, the latest started of those; one pass over the session's outcomes. A sender not
  /// found (an async handler's send, a damaged file) has no entry.
  static func reSenders(
    of sends: [SentFrom], data: LintSessionData, database: QueryDatabase
  ) throws -> [SentFrom: Int] {
    guard !sends.isEmpty, let ids = data.session.idRange else { return [:] }
    let byParent = Dictionary(grouping: sends, by: \.parent)
    var found: [SentFrom: (index: Int, started: Int64)] = [:]
    let statement = try database.connection.prepare(
      """
      SELECT fire_id, registration_id, status, started_ns, duration_ns FROM outcomes
      WHERE id BETWEEN ? AND ?
      """)
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    let ok = RecordCodes.Status.ok.rawValue
    let failed = RecordCodes.Status.failed.rawValue
    while try statement.step() {
      guard let waiting = byParent[statement.int64(at: 0)] else { continue }
      let status = statement.int64(at: 2)
      guard status == ok || status == failed,
        let index = data.index(of: statement.int64(at: 1))
      else { continue }
      let started = statement.int64(at: 3)
      // A damaged duration must not wrap past the send.
      let (ended, overflow) = started.addingReportingOverflow(statement.int64(at: 4))
      for send in waiting where started <= send.at && (overflow || send.at <= ended) {
        if started > found[send]?.started ?? .min { found[send] = (index, started) }
      }
    }
    return found.mapValues(\.index)
  }

  /// The controls from the outermost fire down to `fire`, through recorded parents (at most
  /// 4,096 steps, so a cycle in a damaged file cannot hang), written as its repeating cycle:
  /// `a → b → a → … (33 fires deep)`.
  ///
  /// Also says where the fire was sent from: its parent and when it began, when it has a
  /// parent.
  static func chain(of fire: Int64, data: LintSessionData, database: QueryDatabase) throws
    -> (text: String, depth: Int, sentFrom: SentFrom?)
  {
    let statement = try database.connection.prepare(
      "SELECT control_id, parent_fire_id, at_ns FROM fires WHERE id = ?")
    var names: [String] = []
    var sentFrom: SentFrom?
    var next: Int64? = fire
    while let current = next, names.count < 4_096 {
      statement.reset()
      try statement.bind(current, at: 1)
      guard try statement.step() else { break }
      names.append(data.controlName(statement.int64(at: 0)))
      next = statement.optionalInt64(at: 1)
      if names.count == 1, let parent = next {
        sentFrom = SentFrom(parent: parent, at: statement.int64(at: 2))
      }
    }
    names.reverse()
    guard !names.isEmpty else { return ("-", 0, nil) }
    let period =
      (1...names.count).first { period in
        names.indices.allSatisfy { $0 < period || names[$0] == names[$0 - period] }
      } ?? names.count
    let shown = Array(names.prefix(min(names.count, period + 1)))
    let text =
      shown.joined(separator: " → ")
      + (names.count > shown.count ? " → … (\(names.count) fires deep)" : "")
    return (text, names.count, sentFrom)
  }
}
