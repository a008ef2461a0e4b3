import SleeveStore

/// One session, read for the lint checks: its controls, handlers and lifetimes (small
/// tables), then one pass over its outcomes into per-handler tallies and per-fire facts.
struct LintSessionData {
  let session: SessionSummary
  var controls: [Int64: String] = [:]
  var registrations: [LintRegistration] = []
  /// By registration number (low 32 bits of the id), 1 + an index into ``registrations``
  /// (0: none); numbers past its end are in ``sparseIndex`` (a file numbered sparsely).
  var denseIndex: [Int32] = []
  var sparseIndex: [Int64: Int] = [:]
  var tallies: [HandlerTally] = []
  /// Whether the session recorded lifetimes (schema 0004): registrations exist and at
  /// least one has a lifetime row.
  var hasLifetimes = false
  /// Facts per fire number, dense when fire numbers are compact, else sparse.
  var denseFacts: [UInt8] = []
  var sparseFacts: [Int64: UInt8] = [:]
  /// By fire number, the first handler (an index into ``registrations``) that failed in it:
  /// the throwing handler an error interaction names. Only failed fires have an entry.
  var failedBy: [Int64: Int] = [:]

  /// Reads the session's handlers and lifetimes; the outcome pass is ``scanOutcomes``.
  init(database: QueryDatabase, session: SessionSummary, filter: QueryFilter = QueryFilter())
    throws
  {
    self.session = session
    guard let ids = session.idRange else { return }
    let connection = database.connection
    let controlRows = try connection.prepare(
      "SELECT id, name FROM controls WHERE id BETWEEN ? AND ?")
    try controlRows.bind(ids.lowerBound, at: 1)
    try controlRows.bind(ids.upperBound, at: 2)
    while try controlRows.step() {
      controls[controlRows.int64(at: 0)] = controlRows.text(at: 1) ?? ""
    }
    let rows = try connection.prepare(
      """
      SELECT r.id, r.control_id, r.events, r.kind, r.handler, r.identifier, r.anchor_type,
        r.site, r.removal_reason, l.added_seq, l.removed_seq, l.replaced_registration_id,
        r.flag_key
      FROM registrations r LEFT JOIN registration_lifetimes l ON l.registration_id = r.id
      WHERE r.id BETWEEN ? AND ? ORDER BY r.id
      """)
    try rows.bind(ids.lowerBound, at: 1)
    try rows.bind(ids.upperBound, at: 2)
    while try rows.step() {
      var registration = LintRegistration(
        id: rows.int64(at: 0), control: rows.int64(at: 1),
        events: UInt(truncatingIfNeeded: rows.int64(at: 2)),
        isClosure: rows.text(at: 3) == "closure", handler: rows.text(at: 4) ?? "",
        identifier: rows.text(at: 5), anchorType: rows.text(at: 6), site: rows.text(at: 7) ?? "",
        removalReason: rows.text(at: 8), added: rows.optionalInt64(at: 9),
        removed: rows.optionalInt64(at: 10), replaced: rows.optionalInt64(at: 11))
      registration.isSelected = filter.selects(
        handler: registration.handler, identifier: registration.identifier,
        site: registration.site, control: controls[registration.control],
        flag: rows.text(at: 12))
      if registration.added != nil { hasLifetimes = true }
      registrations.append(registration)
    }
    // Registration numbers run 1, 2, … per session: an array, unless a file says otherwise.
    let highest = registrations.map { RowID.number(of: $0.id) }.max() ?? 0
    let dense = highest <= Int64(registrations.count) * 2 + 1_024
    if dense { denseIndex = Array(repeating: 0, count: Int(highest) + 1) }
    for (index, registration) in registrations.enumerated() {
      let number = RowID.number(of: registration.id)
      if dense {
        denseIndex[Int(number)] = Int32(index + 1)
      } else {
        sparseIndex[number] = index
      }
    }
    tallies = Array(repeating: HandlerTally(), count: registrations.count)
  }

  /// The registration with row id `id`, if the session has it (an id of another session,
  /// which a damaged file can hold, is not one of its registrations).
  func index(of id: Int64) -> Int? {
    guard RowID.session(of: id) == session.id else { return nil }
    let number = RowID.number(of: id)
    guard number < Int64(denseIndex.count) else { return sparseIndex[number] }
    let slot = denseIndex[Int(number)]
    return slot == 0 ? nil : Int(slot - 1)
  }

  /// The control's name (`-` when its row is missing).
  func controlName(_ id: Int64) -> String { controls[id] ?? "-" }

  /// One pass over the session's outcomes: per-handler tallies and, when `factsPerFire`,
  /// the facts of each fire.
  ///
  /// - Parameter budget: The frame budget; synchronous durations above it are kept.
  mutating func scanOutcomes(database: QueryDatabase, budget: Int64, factsPerFire: Bool)
    throws
  {
    guard let ids = session.idRange else { return }
    if factsPerFire { try sizeFacts(database: database, ids: ids) }
    let statement = try database.connection.prepare(
      """
      SELECT registration_id, status, is_async, duration_ns, fire_id FROM outcomes
      WHERE id BETWEEN ? AND ?
      """)
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    let ok = RecordCodes.Status.ok.rawValue
    let failed = RecordCodes.Status.failed.rawValue
    let ownerReleased = RecordCodes.Status.ownerReleased.rawValue
    let refused = RecordCodes.Status.recursionLimit.rawValue
    let cancelled = RecordCodes.Status.cancelled.rawValue
    while try statement.step() {
      let status = statement.int64(at: 1)
      let fire = statement.int64(at: 4)
      // An outcome naming another session's fire (a damaged file) says nothing of this one.
      guard RowID.session(of: fire) == session.id else { continue }
      let registration = index(of: statement.int64(at: 0))
      // An async handler cancelled mid-run (removed, replaced) ran: its interaction
      // reached a handler, so it is not dead.
      if factsPerFire && (status == ok || status == failed || status == cancelled) {
        record(status == failed ? FireFacts.ran | FireFacts.failed : FireFacts.ran, of: fire)
        if status == failed, let registration, failedBy[RowID.number(of: fire)] == nil {
          failedBy[RowID.number(of: fire)] = registration
        }
      }
      guard let index = registration else { continue }
      switch status {
      case ok, failed:
        tallies[index].reached += 1
        tallies[index].ran += 1
        if status == failed { tallies[index].failed += 1 }
        if statement.int64(at: 2) == 0 {
          tallies[index].synchronous += 1
          let duration = statement.int64(at: 3)
          if duration > budget {
            tallies[index].overBudget.append(duration)
          } else if duration > tallies[index].largestWithinBudget ?? .min {
            tallies[index].largestWithinBudget = duration
          }
        }
      case ownerReleased:
        if tallies[index].ownerReleasedFire.map({ fire < $0 }) ?? true {
          tallies[index].ownerReleasedFire = fire
        }
      case refused:
        tallies[index].reached += 1
        tallies[index].refused += 1
        if tallies[index].refusedFire == nil { tallies[index].refusedFire = fire }
      default:
        tallies[index].reached += 1
      }
    }
  }

  /// Dense facts (one byte per fire number) when the numbers are compact, which the
  /// recorder's numbering makes them; sparse for a file whose numbers are not.
  private mutating func sizeFacts(database: QueryDatabase, ids: ClosedRange<Int64>) throws {
    let statement = try database.connection.prepare(
      "SELECT max(id) FROM fires WHERE id BETWEEN ? AND ?")
    try statement.bind(ids.lowerBound, at: 1)
    try statement.bind(ids.upperBound, at: 2)
    guard try statement.step(), let last = statement.optionalInt64(at: 0) else { return }
    let highest = RowID.number(of: last)
    let compact =
      highest <= Int64(session.fires).multipliedReportingOverflow(by: 2).partialValue + 4_096
    if compact && highest < Int64(Int32.max) {
      denseFacts = Array(repeating: 0, count: Int(highest) + 1)
    }
  }

  private mutating func record(_ facts: UInt8, of fire: Int64) {
    let number = RowID.number(of: fire)
    if number < Int64(denseFacts.count) {
      denseFacts[Int(number)] |= facts
    } else {
      sparseFacts[number, default: 0] |= facts
    }
  }

  /// The handler that failed first in the fire with row id `fire` (an index into
  /// ``registrations``), if one did.
  func failingHandler(of fire: Int64) -> Int? {
    failedBy[RowID.number(of: fire)]
  }

  /// Per control, the registration a finding about the control as a whole (a dead or a rage
  /// interaction) points at, its wiring: the handler on it that ran most often in the
  /// session, the first registered of those that ran equally often; when none ran, the first
  /// one registered on it (a handler for an event the user never sent, one behind a flag
  /// that is off). A control no handler was ever registered on has none.
  func wiring() -> [Int64: Int] {
    var best: [Int64: Int] = [:]
    for (index, registration) in registrations.enumerated() {
      guard let known = best[registration.control] else {
        best[registration.control] = index
        continue
      }
      if tallies[index].ran > tallies[known].ran { best[registration.control] = index }
    }
    return best
  }

  /// The facts of the fire with row id `fire` (one of this session's).
  func facts(of fire: Int64) -> UInt8 {
    let number = RowID.number(of: fire)
    return number < Int64(denseFacts.count) ? denseFacts[Int(number)] : sparseFacts[number] ?? 0
  }
}
