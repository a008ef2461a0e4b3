import SleeveStore

/// The checks that read a session's outcome tallies: orphaned handlers, main-thread stalls,
/// nesting pressure. None needs schema 0004.
enum HandlerChecks {
  /// Handlers whose owner was found gone at a fire, counted with the fires of their control
  /// on their events from that one on. Numbers: fires missed, fires it was present for.
  static func orphanedHandlers(
    _ data: LintSessionData, database: QueryDatabase, into sink: inout LintObservations
  ) throws {
    let orphans = data.tallies.indices.filter { data.tallies[$0].ownerReleasedFire != nil }
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
    for (index, tally) in data.tallies.enumerated() where !tally.overBudget.isEmpty {
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

  /// Fires refused at the nesting limit, per control, with the chain of one of them.
  /// Numbers: refused outcomes, the chain's depth.
  static func nestingPressure(
    _ data: LintSessionData, database: QueryDatabase, into sink: inout LintObservations
  ) throws {
    var byControl: [Int64: (refused: Int64, fire: Int64)] = [:]
    for (index, tally) in data.tallies.enumerated() where tally.refused > 0 {
      let control = data.registrations[index].control
      let known = byControl[control]
      byControl[control] = (
        (known?.refused ?? 0) + Int64(tally.refused),
        min(known?.fire ?? .max, tally.refusedFire ?? .max)
      )
    }
    for (control, refused) in byControl {
      let chain = try self.chain(of: refused.fire, data: data, database: database)
      sink.add(
        LintObservationKey(
          check: .nestingPressure, control: data.controlName(control), handler: nil, site: nil),
        LintObservation(
          numbers: [refused.refused, Int64(chain.depth)], sessions: [data.session.id],
          texts: [chain.text]))
    }
  }

  /// The controls from the outermost fire down to `fire`, through recorded parents (at most
  /// 4,096 steps, so a cycle in a damaged file cannot hang), written as its repeating cycle:
  /// `a → b → a → … (33 fires deep)`.
  static func chain(of fire: Int64, data: LintSessionData, database: QueryDatabase) throws
    -> (text: String, depth: Int)
  {
    let statement = try database.connection.prepare(
      "SELECT control_id, parent_fire_id FROM fires WHERE id = ?")
    var names: [String] = []
    var next: Int64? = fire
    while let current = next, names.count < 4_096 {
      statement.reset()
      try statement.bind(current, at: 1)
      guard try statement.step() else { break }
      names.append(data.controlName(statement.int64(at: 0)))
      next = statement.optionalInt64(at: 1)
    }
    names.reverse()
    guard !names.isEmpty else { return ("-", 0) }
    let period =
      (1...names.count).first { period in
        names.indices.allSatisfy { $0 < period || names[$0] == names[$0 - period] }
      } ?? names.count
    let shown = Array(names.prefix(min(names.count, period + 1)))
    let text =
      shown.joined(separator: " → ")
      + (names.count > shown.count ? " → … (\(names.count) fires deep)" : "")
    return (text, names.count)
  }
}
