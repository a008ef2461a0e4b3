import SleeveCore
import SleeveStore
import Synchronization

/// One recorded session: a ``DispatchObserver`` that hands every event of the controls it
/// observes to the recorder's writer.
///
/// Wire controls with ``attach(_:)``, ``observe(_:)`` or ``observeNewControls()``, and flags
/// with ``record(_:)``. The observer requirements it implements
/// (`registered`, `fireBegan`, `handlerFinished`, ...) are public only because its conformance
/// is (so a `MultiplexObserver` can hold it): they are for the controls it observes to call,
/// never for an app or a test.
///
/// The observer calls only append a small value to the buffer and return: no I/O on the
/// firing thread (except in `strict` durability, which waits for each fire's commit by
/// design). Write failures never reach a handler: they go to the recorder's error callback
/// and to ``status``.
///
/// ```swift
/// let session = try await recorder.startSession(name: "CheckoutTests")
/// session.attach(button)          // or create controls inside session.observe { … }
/// button.tap()
/// try await session.end()
/// ```
public final class RecordingSession: DispatchObserver {
  /// The session's UUID, its identity across files.
  public var uuid: String { metadata.uuid }

  /// The session's UUID in lowercase: the unit a ``RolloutUnit/session`` rollout assigns
  /// this session's fires by (``rolloutSessionUnit``).
  private let sessionUnit: String
  /// The session's name.
  public var name: String { metadata.name }
  /// The session's row id in the recorder's file.
  public let rowID: Int64
  /// What was recorded about the environment.
  public let metadata: SessionMetadata
  /// Where the session ran, as recorded (environment, then `RecorderOptions.context`, then
  /// the session's own `context:`).
  public let context: RunContext
  /// The test the session records, as recorded, if any.
  public let test: TestIdentity?
  /// Batched or strict.
  public let durability: RecorderOptions.Durability
  /// The recorder writing this session (kept alive by it).
  public let recorder: Recorder

  private let key: SessionKey
  private let buffer: EventBuffer
  private var hasEnded: Bool { stage.endedAt.load(ordering: .relaxed) != .max }
  /// Whether the session's end was committed.
  private let endWritten = Atomic(false)
  private let stage: FireStage
  private let exportRun = SessionExportRun()

  init(
    recorder: Recorder, key: SessionKey, rowID: Int64, metadata: SessionMetadata,
    context: RunContext, test: TestIdentity?, durability: RecorderOptions.Durability
  ) {
    self.recorder = recorder
    self.key = key
    self.rowID = rowID
    self.metadata = metadata
    sessionUnit = metadata.uuid.lowercased()
    self.context = context
    self.test = test
    self.durability = durability
    self.buffer = recorder.writer.buffer
    stage = FireStage(
      buffer: buffer, session: key, staged: recorder.writer.staged, strict: durability == .strict)
  }

  deinit {
    // What a session released without end() kept staged is handed over by the writer's tick.
    stage.released.store(true, ordering: .releasing)
    recorder.writer.staged.announce()
  }

  // MARK: Wiring

  /// Makes this session the observer of `control`; its existing handlers are recorded.
  @MainActor
  public func attach(_ control: Control) {
    control.observer = self
  }

  /// Records the flags `flags` serves: their definitions and current states now, then every
  /// later change the provider reports (an in-memory provider reports each `set`).
  public func record(_ flags: InMemoryFlagProvider) {
    recordInitialStates(of: flags, keys: flags.definitions.map(\.key))
    flags.addObserver(self)
  }

  /// Records the flags `flags` serves: their definitions and the states read from its
  /// database, so the session shows which side each flag was on. A database provider reports
  /// no changes (it rereads its file at `refresh()`), so there are none to follow.
  public func record(_ flags: DatabaseFlagProvider) {
    recordInitialStates(of: flags, keys: flags.keys)
  }

  private func recordInitialStates(of flags: any FlagProvider, keys: [String]) {
    let now = MonotonicClock.nanoseconds()
    for key in keys {
      let definition = flags.definition(of: key)
      if let definition { append(.flagDefined(Box(definition))) }
      if let state = flags.state(of: key) {
        let change = FlagChange(
          key: key, previous: nil, state: state, actor: "initial", definition: definition,
          atNanoseconds: now)
        append(.flagChanged(Box(change)))
      }
    }
  }

  /// Runs `body` with this session as the observer of every control created inside it (and
  /// in its child tasks), and nowhere else; parallel tests each keep their own.
  public func observe<Result>(_ body: () async throws -> Result) async rethrows -> Result {
    try await ControlDefaults.$observer.withValue(self, operation: body)
  }

  /// Makes this session the process-wide observer of controls created later outside any
  /// ``ControlDefaults`` scope (for apps).
  @MainActor
  public func observeNewControls() {
    Control.defaultObserver = self
  }

  // MARK: State

  /// Events dropped because the buffer was full (policy `drop`), exact.
  public var droppedEvents: Int { buffer.droppedCount(for: key) }

  /// Where the session stands, with its accounting: while recording, the failed writes so
  /// far; once ended, the final count of dropped and failed events (they stay readable).
  public var status: SessionStatus {
    let failure = recorder.writer.failure(of: key)
    if endWritten.load(ordering: .acquiring) {
      let dropped = droppedEvents
      guard failure != nil || dropped > 0 else { return .ended }
      return .endedWithLosses(
        droppedEvents: dropped, failedEvents: failure?.failedEvents ?? 0,
        lastError: failure?.lastError)
    }
    return failure.map {
      .failedWrites(failedEvents: $0.failedEvents, lastError: $0.lastError)
    } ?? .recording
  }

  /// Where the session's export at its end (``RecorderOptions/export``) stands: `.none`
  /// until the session ended with an export configured.
  public var exportStatus: SessionExportStatus { exportRun.status }

  /// Waits until every event recorded so far is written (or has failed, see ``status``), up
  /// to `RecorderOptions.waitTimeout`.
  ///
  /// - Throws: `RecorderError.timedOut` when the wait timeout passed first, which is final:
  ///   the writer gave the events up, counted as failed in ``status`` when this throws (in the
  ///   rare case that the writer does not answer within one more wait timeout, they are
  ///   counted when it gets to them); they are never written later. Other write failures do
  ///   not throw: they are in ``status``.
  public func flush() async throws {
    // What the stage keeps between fires is part of "recorded so far".
    await MainActor.run { _ = stage.handOver() }
    let timedOutBefore = buffer.timedOutBatches
    let finished = await buffer.finished(
      buffer.lastAccepted, deadline: buffer.deadlineFromNow())
    guard finished, buffer.timedOutBatches == timedOutBefore else {
      throw RecorderError.timedOut(
        operation: "write the buffered events", path: recorder.path,
        limit: recorder.options.waitTimeout,
        cause: finished ? recorder.writer.lastTimeoutError : nil)
    }
  }

  /// Writes everything recorded so far and marks the session ended, within
  /// `RecorderOptions.waitTimeout`. Events after `end()` are not recorded. Calling it again
  /// does nothing. With ``RecorderOptions/export`` set, the session is then exported, and
  /// `end()` waits for that at most the export's `endWait` (see ``exportStatus``).
  ///
  /// - Throws: `RecorderError` when the end could not be written: the session then reads as
  ///   unterminated in the file. A timeout (`isTimeout`) is final too: the end is never
  ///   written later.
  public func end() async throws {
    try await end(result: nil)
  }

  /// Ends the session as ``end()`` does and records how its test ended
  /// (`session_context.test_result`), in the same transaction as the end. Only the first
  /// `end` of a session counts: calling either again does nothing.
  ///
  /// ```swift
  /// try await session.end(testResult: .passed)
  /// ```
  ///
  /// - Throws: what ``end()`` throws.
  public func end(testResult: TestIdentity.Result) async throws {
    try await end(result: testResult)
  }

  private func end(result: TestIdentity.Result?) async throws {
    guard
      stage.endedAt.compareExchange(
        expected: .max, desired: MonotonicClock.nanoseconds(), ordering: .acquiringAndReleasing
      ).exchanged
    else { return }
    // What a fire still open (end() called from a handler) recorded before this call is
    // handed over ahead of the end, so nothing staged reaches the writer after the session
    // ended (where it would be dropped uncounted); what the fire does after it is not recorded.
    await MainActor.run { _ = stage.handOver() }
    guard
      let sequence = buffer.appendStructural(
        PendingEvent(
          session: key,
          event: .sessionEnded(
            endedUnixNanoseconds: WallClock.unixNanoseconds(), testResult: result)))
    else { throw RecorderError.closed(path: recorder.path) }
    guard await buffer.finished(sequence, deadline: buffer.deadlineFromNow()) else {
      throw RecorderError.timedOut(
        operation: "end the session", path: recorder.path,
        limit: recorder.options.waitTimeout, cause: nil)
    }
    if let failure = recorder.writer.endFailure(of: key) { throw failure }
    endWritten.store(true, ordering: .releasing)
    if let export = recorder.options.export {
      await exportRun.run(
        export, sessionUUID: uuid, databasePath: recorder.path,
        onError: recorder.options.onWriteError)
    }
  }

  // MARK: DispatchObserver

  /// Records a registration, a change of its events, or an existing handler.
  public func registered(_ registration: RegistrationInfo) {
    var sequence: Int64 = 0
    if registration.change != .eventsChanged {
      stage.registryChanges += 1
      sequence = stage.registryChanges
    }
    append(.registered(Box(RegisteredHandler(info: registration, sequence: sequence))))
  }

  /// Records a removal and its reason.
  public func removed(_ removal: RemovalInfo) {
    stage.registryChanges += 1
    append(.removed(removal, sequence: stage.registryChanges))
  }

  /// Records a user interaction: which of the fires recorded before it were one gesture.
  public func interactionEnded(_ interaction: InteractionInfo) {
    // Its fires reach the buffer first: an interaction any of whose fires was dropped is
    // dropped too, which the buffer can tell only once it has seen them.
    stage.handOver()
    append(.interactionEnded(Box(interaction)))
  }

  /// Stages a fire; it reaches the buffer with its outcomes at the stage's next hand-off
  /// (dropped with them when the buffer is full under `drop`).
  public func fireBegan(_ fire: FireInfo) {
    guard !hasEnded else { return }
    if !stage.hasSeen(fire.control.id) {
      append(.controlSeen(fire.control))
    }
    // A parent is recorded only when it is a fire of this session: the current fire is
    // process-wide, and a fire sent from another session's handler has no row here to point at.
    let parentIsOurs = fire.parent.map { stage.openFireIDs.contains($0.rawValue) } ?? false
    // Built before the append, so no call runs while the stage's buffer is borrowed.
    let record = FireRecord(fire, parentIsRecorded: parentIsOurs)
    stage.fires.append(record)
    stage.openFires += 1
    stage.openFireIDs.append(fire.id.rawValue)
  }

  /// Stages an outcome while fires are open; an async outcome that arrives later goes to the
  /// buffer at once (in strict mode, committed before this returns).
  public func handlerFinished(_ outcome: HandlerOutcome) {
    guard !hasEnded else { return }
    stageOutcome(OutcomeRecord(outcome), error: outcome.error)
  }

  /// An outcome's record: staged while fires are open; otherwise (an async outcome arriving
  /// after its fire) appended at once, and in strict mode committed before this returns.
  @inline(__always)
  @MainActor fileprivate func stageOutcome(_ record: OutcomeRecord, error: (any Error)?) {
    stage.takeSuccesses(finishedBy: .max)
    guard stage.openFires == 0 else {
      stage.stage(record, error: error)
      return
    }
    // An async outcome after its fire: the fire (kept in the stage) reaches the buffer first.
    stage.handOver()
    let sequence = buffer.appendOutcome(record, error: error, session: key)
    if durability == .strict, let sequence {
      // Past the wait timeout the fire returns with its events given up and counted as
      // failed (the writer's verdict, waited for at most one more wait timeout).
      buffer.waitUntilFinished(sequence, deadline: buffer.deadlineFromNow())
    }
  }

  /// Ends a fire: hands the stage to the buffer in strict mode (and waits until it is
  /// committed, or given up and counted as failed, at most `RecorderOptions.waitTimeout`),
  /// otherwise once the stage holds its hand-off limit (see ``StagedSessions``).
  public func fireEnded(_ fire: FireInfo, atNanoseconds: Int64) {
    // Successes that finished after end() was called are not recorded, as for every event.
    stage.takeSuccesses(finishedBy: stage.endedAt.load(ordering: .relaxed))
    stage.openFires = max(stage.openFires - 1, 0)
    if stage.openFireIDs.last == fire.id.rawValue {
      stage.openFireIDs.removeLast()
    } else if let index = stage.openFireIDs.lastIndex(of: fire.id.rawValue) {
      stage.openFireIDs.remove(at: index)
    }
    guard !stage.isEmpty else { return }
    if let sequence = stage.fireEnded(), durability == .strict {
      // Past the wait timeout the fire returns with its events given up and counted as
      // failed (the writer's verdict, waited for at most one more wait timeout).
      buffer.waitUntilFinished(sequence, deadline: buffer.deadlineFromNow())
    }
  }

  /// Records a flag state change (and the flag's definition, when it has one).
  public func flagChanged(_ change: FlagChange) {
    append(.flagChanged(Box(change)))
  }

  private func append(_ event: RecordEvent) {
    guard !hasEnded else { return }
    buffer.appendStructural(PendingEvent(session: key, event: event))
  }
}

extension RecordingSession: SessionDispatchObserver {
  /// The session's UUID in lowercase: the unit a ``RolloutUnit/session`` rollout assigns
  /// this session's fires by.
  @MainActor package var rolloutSessionUnit: String? { sessionUnit }

  /// Where dispatch logs this session's plain successes: taken into the stage at the start
  /// of every observer call, so they keep their place among the other outcomes.
  @MainActor package var successLog: SuccessLog? { stage.successes }

  /// Stages a plain handler's `ok` outcome as its record, with no ``HandlerOutcome`` between:
  /// the same row ``handlerFinished(_:)`` would write for it.
  @MainActor package func handlerSucceeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64
  ) {
    guard !hasEnded else { return }
    stageOutcome(
      OutcomeRecord(
        succeeded: fire, registration: registration, startedAt: startedAtNanoseconds,
        duration: durationNanoseconds),
      error: nil)
  }
}
