/// Plain handlers' successes, written by dispatch in place of
/// ``SessionDispatchObserver/handlerSucceeded(fire:registration:startedAtNanoseconds:durationNanoseconds:)``
/// calls, for an observer that records them in bulk (``SessionDispatchObserver/successLog``).
/// Package-visible only: a performance seam between dispatch and the recorder, not an API.
///
/// The contract, which keeps every outcome in the order it happened:
/// - A control reads its observer's log once, when the observer is set. While it is set,
///   each plain handler's success is appended here and `handlerSucceeded` is not called.
/// - Every other requirement is called after the successes that happened before it were
///   appended: an observer that takes the entries (``drain(_:)``) at the start of each
///   requirement sees the outcomes in order, as if each had been a call.
/// - Dispatch empties the log after each `fireEnded` call returns, so it never holds more
///   than the successes of the fires still open (entries not taken by then are gone).
///
/// An append costs a few stores (no call, no existential, no reference counting), which is
/// what makes a recorded fire of many handlers cheap. Not `Sendable`: a log stays in the
/// isolation that made it (the main actor, where controls and observers run).
package final class SuccessLog {
  /// One plain handler's success: status `ok`, synchronous, no flag, no error.
  package struct Entry: Sendable, Equatable {
    /// The fire it ran in.
    package let fire: FireID
    /// The handler that ran.
    package let registration: RegistrationID
    /// When it started (``MonotonicClock`` nanoseconds).
    package let startedAtNanoseconds: Int64
    /// How long it ran, in nanoseconds.
    package let durationNanoseconds: Int64
  }

  // One isolation touches a log (it is not `Sendable`) and no access outlives a statement,
  // so the dynamic exclusivity checks (about 60 instructions an append) are off.
  // Another module's access to them would be checked dynamically (about 75 instructions a
  // recorded fire), so other modules take the entries through one call, ``takeAll()``.
  @exclusivity(unchecked) private var storage: UnsafeMutablePointer<Entry>
  @exclusivity(unchecked) private var storedCount = 0
  @exclusivity(unchecked) private var capacity: Int

  /// Creates an empty log.
  package init() {
    capacity = 16
    storage = .allocate(capacity: 16)
  }

  deinit {
    storage.deallocate()
  }

  /// How many successes the log holds.
  package var count: Int { storedCount }

  /// Whether the log holds no success.
  package var isEmpty: Bool { storedCount == 0 }

  /// Takes every success, in the order they happened, and empties the log: the buffer stays
  /// valid until the next append, so nothing may fire while it is read. One call, for a
  /// module that moves the entries in bulk (`@inlinable` package code is not inlined across
  /// modules, so ``drainAll(_:)`` there costs a call and a closure; this costs the call).
  package func takeAll() -> UnsafeBufferPointer<Entry> {
    let taken = storedCount
    storedCount = 0
    return UnsafeBufferPointer(start: storage, count: taken)
  }

  /// Calls `body` with each success in the order they happened, then empties the log.
  /// `body` must not fire a control (its successes would land in the log being drained).
  package func drain(_ body: (Entry) -> Void) {
    drainAll { entries in
      for entry in entries { body(entry) }
    }
  }

  /// Calls `body` once with every success, in the order they happened, as one contiguous
  /// buffer valid only during the call, then empties the log: for an observer that moves
  /// them in bulk. `body` must not fire a control.
  package func drainAll(_ body: (UnsafeBufferPointer<Entry>) -> Void) {
    let taken = takeAll()
    guard !taken.isEmpty else { return }
    body(taken)
  }

  /// Appends a success (dispatch only).
  @inline(__always)
  func append(
    fire: FireID, registration: RegistrationID, startedAt: Int64, duration: Int64
  ) {
    if storedCount == capacity { grow() }
    (storage + storedCount).initialize(
      to: Entry(
        fire: fire, registration: registration, startedAtNanoseconds: startedAt,
        durationNanoseconds: duration))
    storedCount &+= 1
  }

  /// Forgets every entry (dispatch, after `fireEnded`).
  @inline(__always)
  func removeAll() {
    storedCount = 0
  }

  /// Doubles the storage (a fire's handlers are few, so this is rare and small).
  @inline(never)
  private func grow() {
    let (doubled, overflow) = capacity.multipliedReportingOverflow(by: 2)
    precondition(!overflow, "success log exhausted")
    let larger = UnsafeMutablePointer<Entry>.allocate(capacity: doubled)
    larger.moveInitialize(from: storage, count: storedCount)
    storage.deallocate()
    storage = larger
    capacity = doubled
  }
}
