import SleeveCore

/// One session's fire and outcome records, staged on the main actor while fires are open and
/// handed to the buffer in one locked append when a fire ends.
///
/// The observer's requirements run on the main actor, so staging needs no lock: a fire costs
/// the buffer's lock once, however many handlers it has. For the same reason (main-actor
/// isolation, and no access outlives a statement) the dynamic exclusivity checks are off.
@MainActor
final class FireStage {
  let fires = RecordBuffer<FireRecord>()
  let outcomes = RecordBuffer<OutcomeRecord>()
  /// Where dispatch appends plain handlers' successes (the session's
  /// ``DispatchObserver/successLog``); ``takeSuccesses(finishedBy:)`` moves them to ``outcomes``.
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

  nonisolated init() {}

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
    guard !successes.isEmpty else { return }
    successes.drain { success in
      guard cutoff == .max || success.startedAtNanoseconds &+ success.durationNanoseconds <= cutoff
      else { return }
      outcomes.append(
        OutcomeRecord(
          succeeded: success.fire, registration: success.registration,
          startedAt: success.startedAtNanoseconds, duration: success.durationNanoseconds))
    }
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

  func removeAll() {
    fires.removeAll()
    outcomes.removeAll()
    if !errors.isEmpty { errors.removeAll(keepingCapacity: true) }
  }
}
