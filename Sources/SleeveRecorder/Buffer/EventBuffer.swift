import Dispatch
import SleeveCore

/// The hand-off between firing threads and the writer: a bounded, `Mutex`-guarded batch.
///
/// Appending takes the lock for a few instructions and returns; it wakes the writer only when
/// a threshold is crossed. Every accepted event gets a sequence number; the writer reports
/// the number it has finished (written or failed), which releases `flush()`, `end()` and
/// strict-mode waiters. Drops are counted per session, never silent.
final class EventBuffer: Sendable {
  private struct State {
    var pending = Batch()
    /// Sequence number of the last accepted event.
    var accepted: UInt64 = 0
    /// Sequence number up to which the writer has finished.
    var finished: UInt64 = 0
    var wakeSignalled = false
    var closed = false
    var commitWaiters: [(target: UInt64, signal: DispatchSemaphore)] = []
    var asyncWaiters: [(target: UInt64, continuation: CheckedContinuation<Void, Never>)] = []
    var spaceWaiters: [DispatchSemaphore] = []
    var dropped: [SessionKey: Int] = [:]
    var droppedFires: [SessionKey: FireRanges] = [:]
    /// Sessions whose last fire was kept (so a later dropped fire starts a new range).
    var keptFireSinceDrop: Set<SessionKey> = []
  }

  /// What an append did.
  private enum Admission {
    case accepted(UInt64, wakeWriter: Bool)
    case dropped
    case mustWait(DispatchSemaphore, wakeWriter: Bool)
  }

  private let state: Locked<State>
  private let wake = DispatchSemaphore(value: 0)
  let capacity: Int
  let flushCount: Int
  let whenFull: RecorderOptions.WhenFull

  init(capacity: Int, flushCount: Int, whenFull: RecorderOptions.WhenFull) {
    self.capacity = capacity
    self.flushCount = flushCount
    self.whenFull = whenFull
    state = Locked(State())
  }

  /// Appends an event that must not be dropped (sessions, registrations, flags): it may take
  /// the buffer past its capacity, which these rare events cannot do for long.
  /// - Returns: Its sequence number, or `nil` when the buffer is closed.
  @discardableResult
  func appendStructural(_ event: PendingEvent) -> UInt64? {
    let admission = state.withLock { state -> Admission in
      guard !state.closed else { return .dropped }
      state.pending.structural.append(event)
      return accept(&state)
    }
    return settle(admission)
  }

  /// Appends a fire: when the buffer is full it is dropped (its outcomes will be too) or waits,
  /// by policy.
  /// - Returns: Its sequence number, or `nil` when dropped.
  @discardableResult
  func appendFire(_ fire: FireRecord, session: SessionKey) -> UInt64? {
    admit { state in
      guard !state.closed else { return .dropped }
      if state.pending.count >= capacity {
        if let wait = makeWaiter(&state) { return wait }
        state.dropped[session, default: 0] += 1
        let extend = !state.keptFireSinceDrop.contains(session)
        state.droppedFires[session, default: FireRanges()].insert(fire.id, extendingLast: extend)
        state.keptFireSinceDrop.remove(session)
        return .dropped
      }
      if !state.droppedFires.isEmpty { state.keptFireSinceDrop.insert(session) }
      state.pending.fires.append(fire, session: session)
      return accept(&state)
    }
  }

  /// Appends an outcome (and the error it threw); one whose fire was dropped is dropped too.
  /// - Returns: Its sequence number, or `nil` when dropped.
  @discardableResult
  func appendOutcome(_ outcome: OutcomeRecord, error: (any Error)?, session: SessionKey)
    -> UInt64?
  {
    admit { state in
      guard !state.closed else { return .dropped }
      if !state.droppedFires.isEmpty,
        state.droppedFires[session]?.contains(outcome.fire) == true
      {
        state.dropped[session, default: 0] += 1
        return .dropped
      }
      if state.pending.count >= capacity {
        if let wait = makeWaiter(&state) { return wait }
        state.dropped[session, default: 0] += 1
        return .dropped
      }
      var record = outcome
      if let error {
        state.pending.errors.append(error)
        record.errorIndex = UInt32(truncatingIfNeeded: state.pending.errors.count)
      }
      state.pending.outcomes.append(record, session: session)
      return accept(&state)
    }
  }

  /// Appends a fire's staged records in one locked step. When they do not fit, policy `drop`
  /// drops them all (counted; later outcomes of these fires are dropped too) and `block`
  /// waits until they fit (or the buffer is empty, for a group larger than the buffer).
  /// - Returns: The sequence number of the last record appended, or `nil` when none was.
  @discardableResult
  func appendStaged(
    fires: RecordBuffer<FireRecord>, outcomes: RecordBuffer<OutcomeRecord>, errors: [any Error],
    session: SessionKey
  ) -> UInt64? {
    let total = fires.count + outcomes.count
    return admit { state in
      guard !state.closed else { return .dropped }
      let count = state.pending.count
      if count > 0, count + total > capacity {
        if let wait = makeWaiter(&state) { return wait }
        state.dropped[session, default: 0] += total
        fires.forEach(from: 0, to: fires.count) { fire in
          let extend = !state.keptFireSinceDrop.contains(session)
          state.droppedFires[session, default: FireRanges()].insert(
            fire.id, extendingLast: extend)
          state.keptFireSinceDrop.remove(session)
        }
        return .dropped
      }
      state.pending.fires.append(contentsOf: fires, session: session)
      if !fires.isEmpty, !state.droppedFires.isEmpty { state.keptFireSinceDrop.insert(session) }
      var appended = fires.count
      if errors.isEmpty, state.droppedFires.isEmpty {
        state.pending.outcomes.append(contentsOf: outcomes, session: session)
        appended += outcomes.count
      } else {
        let errorBase = UInt32(truncatingIfNeeded: state.pending.errors.count)
        state.pending.errors.append(contentsOf: errors)
        outcomes.forEach(from: 0, to: outcomes.count) { staged in
          var outcome = staged
          if state.droppedFires[session]?.contains(outcome.fire) == true {
            state.dropped[session, default: 0] += 1
            return
          }
          if outcome.errorIndex != 0 { outcome.errorIndex += errorBase }
          state.pending.outcomes.append(outcome, session: session)
          appended += 1
        }
      }
      state.accepted += UInt64(appended)
      guard appended > 0 else { return .dropped }
      state.accepted -= 1
      return accept(&state)
    }
  }

  /// Runs `decide` under the lock until it admits or drops the event, waiting outside the lock
  /// whenever it asks to wait for space.
  private func admit(_ decide: (inout State) -> Admission) -> UInt64? {
    while true {
      let admission = state.withLock { decide(&$0) }
      guard case .mustWait(let signal, _) = admission else { return settle(admission) }
      _ = settle(admission)
      signal.wait()
    }
  }

  /// Under policy `block`, a waiter for space (the caller waits outside the lock).
  private func makeWaiter(_ state: inout State) -> Admission? {
    guard whenFull == .block else { return nil }
    let signal = DispatchSemaphore(value: 0)
    state.spaceWaiters.append(signal)
    let wakeWriter = !state.wakeSignalled
    state.wakeSignalled = true
    return .mustWait(signal, wakeWriter: wakeWriter)
  }

  private func accept(_ state: inout State) -> Admission {
    state.accepted += 1
    guard !state.wakeSignalled, state.pending.count >= flushCount else {
      return .accepted(state.accepted, wakeWriter: false)
    }
    state.wakeSignalled = true
    return .accepted(state.accepted, wakeWriter: true)
  }

  private func settle(_ admission: Admission) -> UInt64? {
    switch admission {
    case .accepted(let sequence, let wakeWriter):
      if wakeWriter { wake.signal() }
      return sequence
    case .mustWait(_, let wakeWriter):
      if wakeWriter { wake.signal() }
      return nil
    case .dropped:
      return nil
    }
  }

  /// The events dropped so far for `session`.
  func droppedCount(for session: SessionKey) -> Int {
    state.withLock { $0.dropped[session] ?? 0 }
  }

  /// The sequence number of the last accepted event.
  var lastAccepted: UInt64 { state.withLock { $0.accepted } }

  /// Whether the buffer was closed (the recorder is going away).
  var isClosed: Bool { state.withLock { $0.closed } }

  /// Wakes the writer now.
  func requestWrite() {
    let signal = state.withLock { state -> Bool in
      guard !state.wakeSignalled else { return false }
      state.wakeSignalled = true
      return true
    }
    if signal { wake.signal() }
  }

  /// Blocks until the writer has finished every event up to `sequence`, or `timeout` passed.
  /// - Returns: Whether the events were finished in time.
  @discardableResult
  func waitUntilFinished(_ sequence: UInt64, timeout: DispatchTime = .distantFuture) -> Bool {
    let signal = state.withLock { state -> DispatchSemaphore? in
      guard state.finished < sequence, !state.closed else { return nil }
      let signal = DispatchSemaphore(value: 0)
      state.commitWaiters.append((sequence, signal))
      return signal
    }
    guard let signal else { return true }
    requestWrite()
    return signal.wait(timeout: timeout) == .success
  }

  /// Suspends until the writer has finished every event up to `sequence`.
  func finished(_ sequence: UInt64) async {
    await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state -> Bool in
        guard state.finished < sequence, !state.closed else { return true }
        state.asyncWaiters.append((sequence, continuation))
        return false
      }
      if resumeNow { continuation.resume() } else { requestWrite() }
    }
  }

  // MARK: Writer side

  /// Waits up to `timeout` for a wake-up, then moves every pending event into `batch`
  /// (which must be empty) and returns the sequence number of the last one.
  func takeBatch(into batch: inout Batch, waitingUpTo timeout: Duration) -> (
    last: UInt64, closed: Bool
  ) {
    let (seconds, attoseconds) = timeout.components
    let milliseconds = Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    _ = wake.wait(timeout: .now() + .milliseconds(max(milliseconds, 1)))
    let (last, closed, spaceWaiters) = state.withLock {
      state -> (UInt64, Bool, [DispatchSemaphore]) in
      swap(&state.pending, &batch)
      state.wakeSignalled = false
      let waiters = state.spaceWaiters
      state.spaceWaiters.removeAll()
      return (state.accepted, state.closed, waiters)
    }
    for waiter in spaceWaiters { waiter.signal() }
    return (last, closed)
  }

  /// Records that the writer finished every event up to `sequence`, releasing its waiters.
  func markFinished(_ sequence: UInt64) {
    let (blocking, suspended) = state.withLock { state in
      state.finished = max(state.finished, sequence)
      let finished = state.finished
      let blocking = state.commitWaiters.filter { $0.target <= finished }.map(\.signal)
      state.commitWaiters.removeAll { $0.target <= finished }
      let suspended = state.asyncWaiters.filter { $0.target <= finished }.map(\.continuation)
      state.asyncWaiters.removeAll { $0.target <= finished }
      return (blocking, suspended)
    }
    for signal in blocking { signal.signal() }
    for continuation in suspended { continuation.resume() }
  }

  /// Refuses new events and wakes the writer so it drains and stops.
  func close() {
    state.withLock { $0.closed = true }
    wake.signal()
  }

  /// Releases every waiter (the writer has stopped).
  func releaseAll() {
    let (blocking, suspended, space) = state.withLock { state in
      let result = (
        state.commitWaiters.map(\.signal), state.asyncWaiters.map(\.continuation),
        state.spaceWaiters
      )
      state.commitWaiters.removeAll()
      state.asyncWaiters.removeAll()
      state.spaceWaiters.removeAll()
      return result
    }
    for signal in blocking + space { signal.signal() }
    for continuation in suspended { continuation.resume() }
  }
}
