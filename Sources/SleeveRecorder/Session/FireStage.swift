import SleeveCore
import Synchronization

/// One session's fire and outcome records, staged on the main actor and handed to the
/// buffer in one locked append: at every fire's end in strict durability, otherwise once the
/// stage holds ``handOffLimit`` records or when something must follow them
/// (``StagedSessions`` lists when).
///
/// The observer's requirements run on the main actor, so staging needs no lock: a hand-off
/// costs the buffer's lock once, however many fires and handlers it carries. For the same
/// reason (main-actor isolation, and no access outlives a statement) the dynamic exclusivity
/// checks are off.
@MainActor
final class FireStage {
  /// Their records move to the event buffer whole at a hand-off (``RecordBuffer/takeAll()``).
  let fires: RecordBuffer<FireRecord>
  let outcomes: RecordBuffer<OutcomeRecord>
  /// Where dispatch appends plain handlers' successes (the session's
  /// ``SessionDispatchObserver/successLog``); ``takeSuccesses(finishedBy:)`` moves them to
  /// ``outcomes``.
  let successes = SuccessLog()
  /// Errors thrown by staged outcomes; `OutcomeRecord.errorIndex` is 1 + an index here.
  @exclusivity(unchecked) var errors: [any Error] = []
  /// Fires begun and not yet ended (nested fires count each).
  @exclusivity(unchecked) var openFires = 0
  /// The ids of this session's fires begun and not yet ended, innermost last (at most the
  /// nesting limit deep): a nested fire's parent is recorded only when it is one of these.
  @exclusivity(unchecked) var openFireIDs: [UInt64] = []
  /// The session's additions and removals so far (`registration_lifetimes`): registry
  /// changes arrive here on the main actor in the order they happen, so the count orders them
  /// exactly where timestamps can tie.
  @exclusivity(unchecked) var registryChanges: Int64 = 0
  /// Controls already described to the writer, most recent first.
  @exclusivity(unchecked) private var seenControls: [ControlID] = []

  /// Records staged at a fire's end that make the stage hand over at once.
  nonisolated let handOffLimit: Int
  /// When the session's `end()` was first called (``MonotonicClock`` nanoseconds), or
  /// `Int64.max` while it records: what finished after it is not recorded.
  nonisolated let endedAt = Atomic(Int64.max)
  /// Set when the session was released: a retired stage is dropped from ``StagedSessions``.
  nonisolated let released = Atomic(false)
  private nonisolated let buffer: EventBuffer
  private nonisolated let session: SessionKey
  private nonisolated let staged: StagedSessions
  /// Whether ``StagedSessions`` was told this stage keeps records.
  @exclusivity(unchecked) private var announced = false

  /// The limit of records one hand-off carries under a buffer of `capacity`: at most a 64th
  /// of it (so a group dropped when the buffer is full is a small part of it) and at most
  /// 448, so the limit and the fire that crosses it fit a first chunk of 512 records (a
  /// stage's buffers are handed over whole: a larger chunk would sit half empty in the
  /// batch); 1, a hand-off at every fire's end, for small buffers and strict durability.
  nonisolated static func handOffLimit(capacity: Int, strict: Bool) -> Int {
    strict ? 1 : min(448, max(capacity / 64, 1))
  }

  nonisolated init(
    buffer: EventBuffer, session: SessionKey, staged: StagedSessions, strict: Bool
  ) {
    self.buffer = buffer
    self.session = session
    self.staged = staged
    handOffLimit = Self.handOffLimit(capacity: buffer.capacity, strict: strict)
    // One chunk holds a whole hand-off (a limit's worth and the fire that crossed it).
    let room = handOffLimit == 1 ? 16 : handOffLimit + 64
    fires = RecordBuffer(capacity: room)
    outcomes = RecordBuffer(capacity: room)
    staged.register(self)
  }

  /// Whether the session ended or was released (nothing is staged after either).
  nonisolated var isRetired: Bool {
    endedAt.load(ordering: .relaxed) != .max || released.load(ordering: .relaxed)
  }

  /// How many records are staged.
  var count: Int { fires.count + outcomes.count }

  /// Whether nothing is staged (call ``takeSuccesses(finishedBy:)`` first: the log is not counted).
  var isEmpty: Bool { fires.isEmpty && outcomes.isEmpty }

  /// Whether `control` was seen before; remembers it when not. Sessions observe few controls,
  /// so a short array scanned from the front beats hashing.
  func hasSeen(_ control: ControlID) -> Bool {
    if seenControls.first == control { return true }
    if let index = seenControls.firstIndex(of: control) {
      seenControls.swapAt(0, index)
      return true
    }
    seenControls.insert(control, at: 0)
    return false
  }

  /// Moves the successes dispatch logged since the last call to ``outcomes``, so the
  /// outcome staged next lands after them; those that finished after `cutoff` (the session's
  /// end) are left out. Every call that stages an outcome or hands the stage over starts here
  /// (a fire's record is in its own lane, so `fireBegan` need not).
  @inline(__always)
  func takeSuccesses(finishedBy cutoff: Int64) {
    // One call into SleeveCore (``SuccessLog/takeAll()``); nothing fires while the entries
    // are copied, so nothing is appended over them.
    let logged = successes.takeAll()
    guard !logged.isEmpty else { return }
    if cutoff == .max {
      outcomes.append(count: logged.count) { Self.record(of: logged[$0]) }
      return
    }
    for success in logged
    where success.startedAtNanoseconds &+ success.durationNanoseconds <= cutoff {
      outcomes.append(Self.record(of: success))
    }
  }

  /// The `ok` outcome record of a logged success.
  @inline(__always)
  private nonisolated static func record(of success: SuccessLog.Entry) -> OutcomeRecord {
    OutcomeRecord(
      succeeded: success.fire, registration: success.registration,
      startedAt: success.startedAtNanoseconds, duration: success.durationNanoseconds)
  }

  /// Stages an outcome's record, keeping its error (if any) beside it.
  @inline(__always)
  func stage(_ record: OutcomeRecord, error: (any Error)?) {
    var record = record
    if let error {
      errors.append(error)
      record.errorIndex = UInt32(truncatingIfNeeded: errors.count)
    }
    outcomes.append(record)
  }

  /// After a fire's end: hands the stage over when it holds ``handOffLimit`` records,
  /// otherwise keeps it and makes sure the writer's tick will ask for it.
  /// - Returns: The sequence number of the last record handed over, if any was.
  @inline(__always)
  func fireEnded() -> UInt64? {
    if count >= handOffLimit { return handOver() }
    if !announced, !isEmpty {
      announced = true
      staged.announce()
    }
    return nil
  }

  /// Hands every staged record (and the successes logged so far that finished before the
  /// session's end) to the buffer in one locked append; fires may still be open.
  /// - Returns: The sequence number of the last record appended, if any was.
  @discardableResult
  func handOver() -> UInt64? {
    takeSuccesses(finishedBy: endedAt.load(ordering: .relaxed))
    announced = false
    guard !isEmpty else { return nil }
    // The records change hands outside the lock (the new chunks are allocated here).
    let sequence = buffer.appendStaged(
      fires: fires.takeAll(), outcomes: outcomes.takeAll(), errors: errors, session: session)
    if !errors.isEmpty { errors.removeAll(keepingCapacity: true) }
    return sequence
  }
}
