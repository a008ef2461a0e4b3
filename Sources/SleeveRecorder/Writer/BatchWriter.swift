import SleeveCore
import SleeveStore

/// Writes one batch of events in one `BEGIN IMMEDIATE` transaction with reused statements.
///
/// Lives on the writer thread with its connection. A failed batch is rolled back whole: its
/// events are counted as failed on their sessions, and the fires and registrations it held
/// are remembered as lost so later outcomes that point at them are counted, not written.
final class BatchWriter {
  /// The connection and its statements, released together (closing the file) by
  /// ``abandonFile()``.
  private final class OpenFile {
    let connection: Connection
    let statements: Statements
    init(_ connection: Connection) throws {
      self.connection = connection
      statements = try Statements(connection)
    }
  }

  /// The open file; `nil` once abandoned. Every entry point that writes (``write(_:dropped:)``,
  /// ``giveUp(_:error:dropped:)``, ``heartbeat(dropped:)``) returns first when it is `nil`, so
  /// the accessors below are only reached while it is open.
  private var file: OpenFile?
  private var connection: Connection { file!.connection }
  private var statements: Statements { file!.statements }
  private(set) var sessions: [SessionKey: WriterSession] = [:]
  private var lastHeartbeat: Int64 = 0
  /// Every control described so far (a handful per app), so a control row lost with a failed
  /// batch can be written again.
  private var controlDescriptions: [UInt64: ControlInfo] = [:]
  /// Every handler described so far, for the same reason.
  private var registrationDescriptions: [UInt64: RegisteredHandler] = [:]

  init(connection: Connection) throws {
    file = try OpenFile(connection)
  }

  /// Whether the file was abandoned (replaced under the recorder).
  var isAbandoned: Bool { file == nil }

  /// Lets go of a file that was replaced at its path: empties this connection's own WAL
  /// through its handle (``Connection/releaseReplacedFile()``), then closes the connection
  /// at once, so nothing of it can reach what now lives at the path. Later batches are only
  /// counted (``fail(_:error:)``).
  func abandonFile() {
    guard let file else { return }
    file.connection.releaseReplacedFile()
    self.file = nil
  }

  func rowID(of key: SessionKey) -> Int64 { sessions[key]?.rowID ?? 0 }

  /// Writes `batch`; `dropped` gives each session's drop count for its row.
  /// - Returns: The error when the batch failed (it was rolled back, nothing of it written;
  ///   the caller retries it or gives it up with ``giveUp(_:error:dropped:)``).
  func write(_ batch: Batch, dropped: (SessionKey) -> Int) -> SQLiteError? {
    rememberControls(in: batch)
    guard file != nil else { return Writer.replacedError }
    var staged = sessions
    var newControls: [SessionKey: Set<UInt64>] = [:]
    do {
      try connection.transaction {
        var ends: [PendingEvent] = []
        var interactions: [PendingEvent] = []
        for pending in batch.structural {
          switch pending.event {
          case .sessionEnded: ends.append(pending)
          case .interactionEnded: interactions.append(pending)
          default: try apply(pending, to: &staged, newControls: &newControls)
          }
        }
        try writeFires(batch.fires, to: &staged, newControls: &newControls)
        for pending in interactions {
          try apply(pending, to: &staged, newControls: &newControls)
        }
        try writeOutcomes(
          batch.outcomes, errors: batch.errors, to: &staged, newControls: &newControls)
        for pending in ends { try apply(pending, to: &staged, newControls: &newControls) }
        try persistProgress(of: &staged, dropped: dropped, force: !batch.isEmpty)
      }
      for (key, controls) in newControls { staged[key]?.knownControls.formUnion(controls) }
      sessions = staged.filter { !$0.value.ended }
      return nil
    } catch {
      return error as? SQLiteError ?? SQLiteError(code: 1, message: String(describing: error))
    }
  }

  /// Gives a batch up after `error`: its events are counted as failed on their sessions, the
  /// rows it held are remembered as lost, and the sessions' counters are written if possible.
  /// The counters are not written when the error is a lock held by another process: that
  /// write would wait out the busy timeout again; the next batch writes them.
  func giveUp(_ batch: Batch, error: SQLiteError, dropped: (SessionKey) -> Int) {
    recordLoss(of: batch, error: error)
    guard file != nil, !Writer.isTransient(error) else { return }
    try? connection.transaction {
      var current = sessions
      try persistProgress(of: &current, dropped: dropped, force: true)
      sessions = current
    }
  }

  /// Keeps the description of every control and handler the batch mentions, before anything
  /// can fail, so rows lost with a failed batch can be written again when needed.
  private func rememberControls(in batch: Batch) {
    for pending in batch.structural {
      switch pending.event {
      case .controlSeen(let control):
        controlDescriptions[control.id.rawValue] = control
      case .registered(let box):
        let info = box.value.info
        controlDescriptions[info.control.id.rawValue] = info.control
        if box.value.sequence != 0 || registrationDescriptions[info.id.rawValue] == nil {
          registrationDescriptions[info.id.rawValue] = box.value
        } else if let known = registrationDescriptions[info.id.rawValue] {
          // A change of events keeps the registration's place in the order.
          registrationDescriptions[info.id.rawValue] = RegisteredHandler(
            info: info, sequence: known.sequence)
        }
      default: break
      }
    }
  }

  /// Counts `batch` as failed without writing it (the file is no longer the one opened).
  func fail(_ batch: Batch, error: SQLiteError) -> SQLiteError {
    rememberControls(in: batch)
    return recordLoss(of: batch, error: error)
  }

  /// Refreshes heartbeats of idle sessions about once a second.
  func heartbeat(dropped: (SessionKey) -> Int) {
    guard file != nil, WallClock.unixNanoseconds() - lastHeartbeat > 1_000_000_000,
      !sessions.isEmpty
    else { return }
    _ = write(Batch(), dropped: dropped)
  }

  /// Fires, run by run (one session lookup per run).
  private func writeFires(
    _ fires: Lane<FireRecord>, to staged: inout [SessionKey: WriterSession],
    newControls: inout [SessionKey: Set<UInt64>]
  ) throws {
    try fires.forEachRun { key, records in
      guard var session = staged[key], session.rowID != 0 else { return }
      defer { staged[key] = session }
      try records.forEachRecord { fire in
        // The control's row may have been lost with a failed batch: write it again from its
        // description before the fire that needs it.
        if !session.knownControls.contains(fire.control),
          newControls[key]?.contains(fire.control) != true,
          let control = controlDescriptions[fire.control]
        {
          try ensureControl(control, of: &session, key: key, newControls: &newControls)
        }
        guard let id = session.fireRowID(fire.id), let control = session.controlRowID(fire.control)
        else { return session.refuse() }
        try insert(fire, id: id, control: control, of: session)
      }
    }
  }

  /// Outcomes, run by run; those whose fire or registration was lost in a failed batch are
  /// counted as failed instead of written.
  private func writeOutcomes(
    _ outcomes: Lane<OutcomeRecord>, errors: [any Error],
    to staged: inout [SessionKey: WriterSession], newControls: inout [SessionKey: Set<UInt64>]
  ) throws {
    try outcomes.forEachRun { key, records in
      guard var session = staged[key], session.rowID != 0 else { return }
      defer { staged[key] = session }
      let checkLosses = !session.lostFires.isEmpty || !session.lostRegistrations.isEmpty
      try records.forEachRecord { record in
        if checkLosses, session.lostRegistrations.contains(record.registration),
          let info = registrationDescriptions[record.registration]
        {
          // The handler's row was lost with a failed batch: write it again.
          try ensureControl(
            info.info.control, of: &session, key: key, newControls: &newControls)
          try insertOrUpdate(info, of: &session, forceInsert: true)
          session.lostRegistrations.remove(record.registration)
        }
        if checkLosses,
          session.lostFires.contains(record.fire)
            || session.lostRegistrations.contains(record.registration)
        {
          session.failedEvents += 1
          return
        }
        guard let fire = session.parentFireRowID(record.fire),
          let registration = session.registrationRowID(record.registration),
          let id = session.nextOutcomeRowID()
        else { return session.refuse() }
        let error = record.errorIndex == 0 ? nil : errors[Int(record.errorIndex) - 1]
        try insert(record, error: error, ids: (id, fire, registration), of: session)
      }
    }
  }

  private func apply(
    _ pending: PendingEvent, to staged: inout [SessionKey: WriterSession],
    newControls: inout [SessionKey: Set<UInt64>]
  ) throws {
    let key = pending.session
    if case .sessionStarted(let start) = pending.event {
      // A file with no session ids left takes no new session (the start reports it).
      guard try SessionIDs.next(in: connection) != nil else { return }
      try insertSession(start)
      let rowID = connection.lastInsertRowID
      try insertContext(of: start, session: rowID)
      staged[key] = WriterSession(
        rowID: rowID,
        startedMonotonicNanoseconds: start.startedMonotonicNanoseconds,
        startedUnixNanoseconds: start.startedUnixNanoseconds)
      return
    }
    guard var session = staged[key], session.rowID != 0 else { return }
    defer { staged[key] = session }
    switch pending.event {
    case .sessionStarted:
      return
    case .controlSeen(let control):
      try ensureControl(control, of: &session, key: key, newControls: &newControls)
    case .registered(let box):
      try ensureControl(box.value.info.control, of: &session, key: key, newControls: &newControls)
      try insertOrUpdate(box.value, of: &session)
    case .removed(let removal, let sequence):
      let statement = statements.markRegistrationRemoved
      guard let id = session.registrationRowID(removal.id.rawValue) else { return }
      try statement.bind(session.sinceStart(removal.atNanoseconds), at: 1)
      try statement.bind(removal.reason.rawValue, at: 2)
      try statement.bind(id, at: 3)
      try statement.run()
      try statements.markLifetimeEnded.bind(sequence, at: 1)
      try statements.markLifetimeEnded.bind(id, at: 2)
      try statements.markLifetimeEnded.run()
    case .interactionEnded(let box):
      try insert(box.value, of: &session, key: key, newControls: &newControls)
    case .flagDefined(let box):
      try upsert(box.value, of: session)
    case .flagChanged(let box):
      let change = box.value
      if let definition = change.definition { try upsert(definition, of: session) }
      try insert(change, of: session)
    case .sessionEnded(let endedUnixNanoseconds, let testResult):
      try statements.endSession.bind(endedUnixNanoseconds, at: 1)
      try statements.endSession.bind(session.rowID, at: 2)
      try statements.endSession.run()
      if let testResult {
        try statements.recordTestResult.bind(session.rowID, at: 1)
        try statements.recordTestResult.bind(testResult.rawValue, at: 2)
        try statements.recordTestResult.run()
      }
      // Every outcome of the session is written by now (a batch writes its ends last, and an
      // ended session takes no more rows), so its summaries are final.
      try SummaryTables.summarize(
        session: session.rowID, connection: connection, unixNanoseconds: endedUnixNanoseconds)
      session.ended = true
    }
  }

  private func insertSession(_ start: SessionStart) throws {
    let statement = statements.insertSession
    let metadata = start.metadata
    try statement.bind(metadata.uuid, at: 1)
    try statement.bind(metadata.name, at: 2)
    try statement.bind(metadata.tagsJSON, at: 3)
    try statement.bind(start.startedUnixNanoseconds, at: 4)
    try statement.bind(start.startedUnixNanoseconds, at: 5)
    try statement.bind(start.durability.rawValue, at: 6)
    try statement.bind(metadata.host, at: 7)
    try statement.bind(Int64(metadata.pid), at: 8)
    try statement.bind(metadata.os, at: 9)
    try statement.bind(metadata.runtime, at: 10)
    try statement.bind(metadata.sleeveVersion, at: 11)
    try statement.bind(metadata.sqliteVersion, at: 12)
    try statement.bind(metadata.metadataJSON, at: 13)
    try statement.run()
  }

  /// The session's `session_context` row, in the transaction of its `sessions` row; none
  /// when nothing is known (readers LEFT JOIN). Values are already in recorded form.
  private func insertContext(of start: SessionStart, session rowID: Int64) throws {
    let context = start.context
    guard !context.isEmpty || start.test != nil else { return }
    let statement = statements.insertContext
    let values: [String?] = [
      context.ciSystem?.rawValue, context.commit, context.branch, context.pullRequest,
      context.pipeline, context.attempt, context.job, context.runner, context.repository,
      context.buildURL, start.test?.id, start.test?.name, start.test?.suite,
      start.test?.tagsJSON ?? "[]",
    ]
    try statement.bind(rowID, at: 1)
    for (index, value) in values.enumerated() {
      try statement.bind(value, at: Int32(index + 2))
    }
    try statement.run()
  }

  private func ensureControl(
    _ control: ControlInfo, of session: inout WriterSession, key: SessionKey,
    newControls: inout [SessionKey: Set<UInt64>]
  ) throws {
    let number = control.id.rawValue
    guard !session.knownControls.contains(number),
      newControls[key]?.contains(number) != true
    else { return }
    guard let id = session.controlRowID(number) else { return session.refuse() }
    let statement = statements.insertControl
    try statement.bind(id, at: 1)
    try statement.bind(session.rowID, at: 2)
    try statement.bind(RecordedText.capped(control.name, to: .name), at: 3)
    try statement.bind(RecordedText.capped(control.kind, to: .name), at: 4)
    try statement.run()
    newControls[key, default: []].insert(number)
  }

  private func insertOrUpdate(
    _ registered: RegisteredHandler, of session: inout WriterSession, forceInsert: Bool = false
  ) throws {
    let info = registered.info
    guard let id = session.registrationRowID(info.id.rawValue),
      let control = session.controlRowID(info.control.id.rawValue)
    else { return session.refuse() }
    if info.change == .eventsChanged && !forceInsert {
      try statements.updateRegistrationEvents.bind(Int64(info.events.rawValue), at: 1)
      try statements.updateRegistrationEvents.bind(id, at: 2)
      try statements.updateRegistrationEvents.run()
      return
    }
    let statement = statements.insertRegistration
    try statement.bind(id, at: 1)
    try statement.bind(session.rowID, at: 2)
    try statement.bind(control, at: 3)
    try statement.bind(Int64(info.events.rawValue), at: 4)
    try statement.bind(info.kind.rawValue, at: 5)
    try statement.bind(RecordedText.capped(info.handler, to: .name), at: 6)
    try statement.bind(info.identifier.map { RecordedText.capped($0, to: .name) }, at: 7)
    try statement.bind(info.flagKey.map { RecordedText.capped($0, to: .name) }, at: 8)
    try statement.bind(Int64(info.isAsync ? 1 : 0), at: 9)
    try statement.bind(info.anchorType.map { RecordedText.capped($0, to: .name) }, at: 10)
    try statement.bind(RecordedText.capped(info.site, to: .name), at: 11)
    try statement.bind(session.sinceStart(info.atNanoseconds), at: 12)
    try statement.run()
    guard registered.sequence != 0 else { return }
    let lifetime = statements.insertLifetime
    try lifetime.bind(id, at: 1)
    try lifetime.bind(registered.sequence, at: 2)
    // A replaced handler whose row was lost with a failed batch is not named: the foreign key
    // would fail this batch too, and every later replacement of the same id with it.
    let replaced = info.replaced.flatMap { replaced in
      session.lostRegistrations.contains(replaced.rawValue)
        ? nil : session.knownRegistrationRowID(replaced.rawValue)
    }
    try lifetime.bind(replaced, at: 3)
    try lifetime.run()
  }

  /// An interaction's row; its fire ids are numbered as the fires were (they reached the
  /// writer before it). An interaction none of whose fires can be numbered (every fire of the
  /// session before it was dropped, and counted so) has no row; one past the session's
  /// numbers is refused. One any of whose fires was lost with a failed batch is counted as
  /// failed instead of written: its row would name fires that do not exist, and lint would
  /// call it dead.
  private func insert(
    _ interaction: InteractionInfo, of session: inout WriterSession, key: SessionKey,
    newControls: inout [SessionKey: Set<UInt64>]
  ) throws {
    if !session.lostFires.isEmpty,
      interaction.fireRange.map(session.lostFires.overlaps) ?? false
    {
      session.failedEvents += 1
      return
    }
    guard let first = session.parentFireRowID(interaction.firstFire.rawValue),
      let last = session.parentFireRowID(interaction.lastFire.rawValue)
    else { return }
    try ensureControl(interaction.control, of: &session, key: key, newControls: &newControls)
    guard let control = session.controlRowID(interaction.control.id.rawValue),
      let id = session.nextInteractionRowID()
    else { return session.refuse() }
    let statement = statements.insertInteraction
    try statement.bind(id, at: 1)
    try statement.bind(control, at: 2)
    try statement.bind(RecordedText.capped(interaction.gesture, to: .name), at: 3)
    try statement.bind(Int64(interaction.wasEnabled ? 1 : 0), at: 4)
    try statement.bind(Int64(clamping: interaction.depth), at: 5)
    try statement.bind(first, at: 6)
    try statement.bind(last, at: 7)
    try statement.bind(Int64(clamping: interaction.fireCount), at: 8)
    try statement.bind(session.sinceStart(interaction.atNanoseconds), at: 9)
    try statement.bind(session.sinceStart(interaction.endedAtNanoseconds), at: 10)
    try statement.run()
  }

  private func insert(_ fire: FireRecord, id: Int64, control: Int64, of session: WriterSession)
    throws
  {
    let statement = statements.insertFire
    try statement.bind(id, at: 1)
    try statement.bind(control, at: 2)
    try statement.bind(Int64(fire.events), at: 3)
    try statement.bind(Int64(fire.origin), at: 4)
    try statement.bind(session.parentFireRowID(fire.parent), at: 5)
    try statement.bind(Int64(fire.depth), at: 6)
    try statement.bind(session.sinceStart(fire.atNanoseconds), at: 7)
    try statement.run()
  }

  private func insert(
    _ outcome: OutcomeRecord, error thrown: (any Error)?,
    ids: (outcome: Int64, fire: Int64, registration: Int64), of session: WriterSession
  ) throws {
    let statement = statements.insertOutcome
    try statement.bind(ids.outcome, at: 1)
    try statement.bind(ids.fire, at: 2)
    try statement.bind(ids.registration, at: 3)
    try statement.bind(Int64(outcome.status), at: 4)
    try statement.bind(outcome.reason == 0 ? nil : Int64(outcome.reason), at: 5)
    try statement.bind(outcome.variant < 0 ? nil : Int64(outcome.variant), at: 6)
    try statement.bind(outcome.variant < 0 ? nil : Int64(outcome.flagState), at: 7)
    try statement.bind(Int64(outcome.isAsync ? 1 : 0), at: 8)
    try statement.bind(session.sinceStart(outcome.startedAtNanoseconds), at: 9)
    try statement.bind(outcome.durationNanoseconds, at: 10)
    let error = thrown.map(ErrorText.init)
    try statement.bind(error?.type, at: 11)
    try statement.bind(error?.message, at: 12)
    try statement.run()
    guard outcome.rolloutBasisPoints >= 0 else { return }
    let rollout = statements.insertOutcomeRollout
    try rollout.bind(ids.outcome, at: 1)
    try rollout.bind(Int64(outcome.rolloutBasisPoints), at: 2)
    try rollout.bind(
      outcome.isAssigned ? Int64(bitPattern: outcome.assignment) : nil, at: 3)
    try rollout.run()
  }

  private func upsert(_ definition: FlagDefinition, of session: WriterSession) throws {
    let statement = statements.upsertFlag
    let thresholds = definition.thresholds
    try statement.bind(session.rowID, at: 1)
    try statement.bind(RecordedText.capped(definition.key, to: .name), at: 2)
    try statement.bind(RecordedText.capped(definition.owner, to: .name), at: 3)
    try statement.bind(thresholds.maxErrorRate, at: 4)
    try statement.bind(thresholds.maxP99.map(MonotonicClock.nanoseconds(in:)), at: 5)
    try statement.bind(Int64(thresholds.minSamples), at: 6)
    try statement.run()
    try RolloutRecords.replacePlan(
      RolloutRecords.Plan(definition), key: RecordedText.capped(definition.key, to: .name),
      session: session.rowID, connection: connection)
  }

  private func insert(_ change: FlagChange, of session: WriterSession) throws {
    try statements.flagEvents.write(
      FlagEventWriter.Row(
        change, session: session.rowID,
        atUnixNanoseconds: session.startedUnixNanoseconds(at: change.atNanoseconds),
        atNanoseconds: session.sinceStart(change.atNanoseconds)))
  }

  private func persistProgress(
    of staged: inout [SessionKey: WriterSession], dropped: (SessionKey) -> Int, force: Bool
  ) throws {
    let now = WallClock.unixNanoseconds()
    for (key, session) in staged where session.rowID != 0 {
      let progress = WriterSession.Progress(
        dropped: dropped(key), failed: session.failedEvents, writeErrors: session.writeErrors)
      guard force || progress != session.persisted || now - lastHeartbeat > 1_000_000_000
      else { continue }
      let statement = statements.updateSessionProgress
      try statement.bind(now, at: 1)
      try statement.bind(Int64(progress.dropped), at: 2)
      try statement.bind(Int64(progress.failed), at: 3)
      try statement.bind(Int64(progress.writeErrors), at: 4)
      try statement.bind(session.lastError, at: 5)
      try statement.bind(session.rowID, at: 6)
      try statement.run()
      staged[key]?.persisted = progress
    }
    lastHeartbeat = now
  }

  @discardableResult
  private func recordLoss(of batch: Batch, error: SQLiteError) -> SQLiteError {
    var touched: Set<SessionKey> = []
    for pending in batch.structural {
      if case .registered(let box) = pending.event {
        sessions[pending.session]?.lostRegistrations.insert(box.value.info.id.rawValue)
      }
      sessions[pending.session]?.failedEvents += 1
      touched.insert(pending.session)
    }
    batch.fires.forEachRun { key, records in
      records.forEachRecord { fire in
        sessions[key]?.lostFires.insert(fire.id, extendingLast: false)
      }
      sessions[key]?.failedEvents += records.count
      touched.insert(key)
    }
    batch.outcomes.forEachRun { key, records in
      sessions[key]?.failedEvents += records.count
      touched.insert(key)
    }
    for key in touched {
      sessions[key]?.writeErrors += 1
      sessions[key]?.lastError = RecordedText.capped(error.description, to: .message)
    }
    return error
  }
}
