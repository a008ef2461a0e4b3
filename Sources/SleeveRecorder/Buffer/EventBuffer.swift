import Dispatch
import SleeveCore

/// The hand-off between firing threads and the writer: a bounded, `Locked`-guarded batch.
///
/// Appending takes the lock for a few instructions and returns; it wakes the writer only when
/// a threshold is crossed. Every accepted event gets a sequence number; the writer reports
/// the number it has finished (written or failed), which releases `flush()`, `end()` and
/// strict-mode waiters. Drops are counted per session, never silent.
///
/// Every wait has a deadline (`RecorderOptions.waitTimeout` from its start), and every wait
/// ends with a verdict: the writer, which reads the earliest deadline of a waiter with
/// ``earliestDeadline()``, gives a batch it cannot write up before that deadline, so the
/// waiter hears the verdict in time. When the deadline passes first anyway (the writer was
/// mid-attempt, or not scheduled on a loaded machine), the waiter stays registered and waits
/// for the verdict, at most one more wait timeout: its deadline, now past, makes the writer
/// give up the batch it holds at its next check (counted as failed), or the attempt under way
/// writes it. Only a waiter that leaves without a verdict (the writer did not answer even in
/// the grace) marks what it waited for *abandoned* (``mustGiveUp``): the writer gives those
/// events up unwritten, counted, whenever it gets to them. So a timed-out wait is final: what
/// it waited for is written before it returns or counted as failed, never written after.
final class EventBuffer: Sendable {
  private struct State {
    var pending = Batch()
    /// Sequence number of the last accepted event.
    var accepted: UInt64 = 0
    /// Sequence number up to which the writer has finished.
    var finished: UInt64 = 0
    var wakeSignalled = false
    var closed = false
    var commitWaiters: [CommitWaiter] = []
    var asyncWaiters: [AsyncWaiter] = []
    var spaceWaiters: [SpaceWaiter] = []
    var nextAsyncWaiter: UInt64 = 0
    /// Batches the writer gave up because a waiter's deadline (or its own) came first.
    var timedOutBatches: UInt64 = 0
    /// The highest sequence number a waiter left without a verdict (past its deadline and the
    /// grace): every event up to it that the writer has not finished is given up, never
    /// written after the waiter returned.
    var abandonedThrough: UInt64 = 0
    var dropped: [SessionKey: Int] = [:]
    var droppedFires: [SessionKey: FireRanges] = [:]
    /// Sessions whose last fire was kept (so a later dropped fire starts a new range).
    var keptFireSinceDrop: Set<SessionKey> = []
  }

  /// A thread blocked until the writer finishes `target`.
  private struct CommitWaiter {
    let target: UInt64
    let deadline: DispatchTime
    let signal: DispatchSemaphore
  }

  /// A task suspended until the writer finishes `target`; resumed with `true` when it did
  /// (the verdict), `false` when even the grace after its deadline passed without one.
  private struct AsyncWaiter {
    let id: UInt64
    let target: UInt64
    let deadline: DispatchTime
    let continuation: CheckedContinuation<Bool, Never>
  }

  /// A firing thread blocked for room in the buffer (policy `block`).
  private struct SpaceWaiter {
    let deadline: DispatchTime
    let signal: DispatchSemaphore
  }

  /// What an append did.
  private enum Admission {
    case accepted(UInt64, wakeWriter: Bool)
    case dropped
    case mustWait(DispatchSemaphore, wakeWriter: Bool)
  }

  private let state: Locked<State>
  private let wake = DispatchSemaphore(value: 0)
  /// Where tests hold one side of a wait (see ``WaitSeams``).
  let seams = WaitSeams()
  let capacity: Int
  let flushCount: Int
  let whenFull: RecorderOptions.WhenFull

  /// How long any caller waits for the writer (`RecorderOptions.waitTimeout`).
  let waitTimeout: Duration

  init(
    capacity: Int, flushCount: Int, whenFull: RecorderOptions.WhenFull, waitTimeout: Duration
  ) {
    self.capacity = capacity
    self.flushCount = flushCount
    self.whenFull = whenFull
    self.waitTimeout = waitTimeout
    state = Locked(State())
  }

  /// The deadline of a wait starting now.
  func deadlineFromNow() -> DispatchTime {
    DispatchTime.now() + waitTimeout.dispatchInterval
  }

  /// Appends an event that must not be dropped (sessions, registrations, flags): it may take
  /// the buffer past its capacity, which these rare events cannot do for long. The one
  /// exception is an interaction any of whose fires (first to last) was dropped: it is
  /// dropped too, and counted, so no interaction row names fires that were never written.
  /// - Returns: Its sequence number, or `nil` when the buffer is closed.
  @discardableResult
  func appendStructural(_ event: PendingEvent) -> UInt64? {
    let admission = state.withLock { state -> Admission in
      guard !state.closed else { return .dropped }
      if case .interactionEnded(let box) = event.event, !state.droppedFires.isEmpty,
        let fires = box.value.fireRange, state.droppedFires[event.session]?.overlaps(fires) == true
      {
        // Its fires were dropped: a row naming them would call the interaction dead.
        state.dropped[event.session, default: 0] += 1
        return .dropped
      }
      state.pending.structural.append(event)
      return accept(&state)
    }
    return settle(admission)
  }

  /// Appends an outcome (and the error it threw); one whose fire was dropped is dropped too.
  /// - Returns: Its sequence number, or `nil` when dropped.
  @discardableResult
  func appendOutcome(_ outcome: OutcomeRecord, error: (any Error)?, session: SessionKey)
    -> UInt64?
  {
    admit { state, waiting in
      guard !state.closed else { return .dropped }
      if !state.droppedFires.isEmpty,
        state.droppedFires[session]?.contains(outcome.fire) == true
      {
        state.dropped[session, default: 0] += 1
        return .dropped
      }
      if state.pending.count >= capacity {
        if let wait = makeWaiter(&state, until: waiting) { return wait }
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

  /// Appends a stage's records in one locked step, taking its buffers whole when it can (no
  /// record is copied): the caller gives both buffers up (``RecordBuffer/takeAll()``). When they do not fit, policy `drop` drops them all (counted; later
  /// outcomes of these fires are dropped too) and `block` waits until they fit (or the buffer
  /// is empty, for a group larger than the buffer), up to the wait timeout, past which they
  /// are dropped and counted.
  func appendStaged(
    fires: RecordBuffer<FireRecord>, outcomes: RecordBuffer<OutcomeRecord>, errors: [any Error],
    session: SessionKey
  ) -> UInt64? {
    let total = fires.count + outcomes.count
    return admit { state, waiting in
      guard !state.closed else { return .dropped }
      let count = state.pending.count
      if count > 0, count + total > capacity {
        if let wait = makeWaiter(&state, until: waiting) { return wait }
        state.dropped[session, default: 0] += total
        fires.forEachRecord { fire in
          let extend = !state.keptFireSinceDrop.contains(session)
          state.droppedFires[session, default: FireRanges()].insert(
            fire.id, extendingLast: extend)
          state.keptFireSinceDrop.remove(session)
        }
        return .dropped
      }
      state.pending.fires.append(taking: fires, session: session)
      if !fires.isEmpty, !state.droppedFires.isEmpty { state.keptFireSinceDrop.insert(session) }
      var appended = fires.count
      if state.droppedFires.isEmpty {
        if !errors.isEmpty {
          // The stage numbered its errors from 1; the batch's come first.
          let errorBase = UInt32(truncatingIfNeeded: state.pending.errors.count)
          state.pending.errors.append(contentsOf: errors)
          if errorBase != 0 {
            outcomes.updateEach { outcome in
              if outcome.errorIndex != 0 { outcome.errorIndex &+= errorBase }
            }
          }
        }
        state.pending.outcomes.append(taking: outcomes, session: session)
        appended += outcomes.count
      } else {
        // Outcomes of fires dropped earlier are dropped too: copy the others one by one.
        let errorBase = UInt32(truncatingIfNeeded: state.pending.errors.count)
        state.pending.errors.append(contentsOf: errors)
        outcomes.forEachRecord { staged in
          var outcome = staged
          if state.droppedFires[session]?.contains(outcome.fire) == true {
            state.dropped[session, default: 0] += 1
            return
          }
          if outcome.errorIndex != 0 { outcome.errorIndex &+= errorBase }
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
  /// whenever it asks to wait for space. `decide` gets the deadline of the wait (set by the
  /// first one), or `nil` once it has passed: it must then not ask to wait again.
  private func admit(_ decide: (inout State, _ waiting: DispatchTime?) -> Admission) -> UInt64? {
    var deadline: DispatchTime?
    var expired = false
    while true {
      // Only `block` ever waits: under `drop` no deadline is read (it would cost a clock
      // read and a conversion on every fire's hand-off).
      let until =
        expired ? nil : (deadline ?? (whenFull == .block ? deadlineFromNow() : .distantFuture))
      let admission = state.withLock { decide(&$0, until) }
      guard case .mustWait(let signal, _) = admission else { return settle(admission) }
      _ = settle(admission)
      deadline = until
      if signal.wait(timeout: until ?? .now()) == .timedOut {
        // Past the deadline: forget this waiter (so the writer no longer hurries for it) and
        // decide once more, without waiting: the event fits now or is dropped, counted.
        state.withLock { state in
          state.spaceWaiters.removeAll { $0.signal === signal }
        }
        expired = true
      }
    }
  }

  /// Under policy `block` and before the deadline, a waiter for space (the caller waits
  /// outside the lock); `nil` when the event must be dropped instead.
  private func makeWaiter(_ state: inout State, until deadline: DispatchTime?) -> Admission? {
    guard whenFull == .block, let deadline else { return nil }
    let signal = DispatchSemaphore(value: 0)
    state.spaceWaiters.append(SpaceWaiter(deadline: deadline, signal: signal))
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

  /// Blocks until the writer has finished every event up to `sequence` (written or failed).
  /// Past `deadline` the wait goes on for the writer's verdict, which comes at its next check,
  /// for at most one more wait timeout; a waiter that leaves without one marks its events
  /// abandoned (``mustGiveUp``).
  /// - Returns: Whether the verdict came (`false` only when the writer did not answer even in
  ///   the grace: the events are then given up when it gets to them, never written).
  @discardableResult
  func waitUntilFinished(_ sequence: UInt64, deadline: DispatchTime) -> Bool {
    let signal = state.withLock { state -> DispatchSemaphore? in
      guard state.finished < sequence, !state.closed else { return nil }
      let signal = DispatchSemaphore(value: 0)
      state.commitWaiters.append(
        CommitWaiter(target: sequence, deadline: deadline, signal: signal))
      return signal
    }
    guard let signal else { return true }
    requestWrite()
    if signal.wait(timeout: deadline) == .success { return true }
    deadlinePassed()
    if signal.wait(timeout: graceDeadline(after: deadline)) == .success { return true }
    // No verdict even in the grace, unless the writer finished in the meantime (it then
    // removed the waiter and signalled it: take that signal so the semaphore is balanced).
    let stillWaiting = state.withLock { state -> Bool in
      guard let index = state.commitWaiters.firstIndex(where: { $0.signal === signal }) else {
        return false
      }
      state.commitWaiters.remove(at: index)
      state.abandonedThrough = max(state.abandonedThrough, sequence)
      return true
    }
    if stillWaiting { seams.waitAbandoned() } else { signal.wait() }
    return !stillWaiting
  }

  /// Suspends until the writer has finished every event up to `sequence` (written or failed).
  /// Past `deadline` the wait goes on for the writer's verdict, as for
  /// ``waitUntilFinished(_:deadline:)``, for at most one more wait timeout.
  /// - Returns: Whether the verdict came.
  func finished(_ sequence: UInt64, deadline: DispatchTime) async -> Bool {
    await withCheckedContinuation { continuation in
      let waiter = state.withLock { state -> UInt64? in
        guard state.finished < sequence, !state.closed else { return nil }
        state.nextAsyncWaiter += 1
        state.asyncWaiters.append(
          AsyncWaiter(
            id: state.nextAsyncWaiter, target: sequence, deadline: deadline,
            continuation: continuation))
        return state.nextAsyncWaiter
      }
      guard let waiter else { return continuation.resume(returning: true) }
      requestWrite()
      DispatchQueue.global().asyncAfter(deadline: deadline) { [weak self] in
        self?.expireAsyncWaiter(waiter, sequence: sequence, deadline: deadline)
      }
    }
  }

  /// At an async waiter's deadline, unless the writer already answered: gives the writer the
  /// grace to answer; past it, resumes the waiter unanswered and marks its events abandoned.
  private func expireAsyncWaiter(_ id: UInt64, sequence: UInt64, deadline: DispatchTime) {
    let waiting = state.withLock { state in state.asyncWaiters.contains { $0.id == id } }
    guard waiting else { return }
    deadlinePassed()
    DispatchQueue.global().asyncAfter(deadline: graceDeadline(after: deadline)) {
      [weak self] in
      guard let self else { return }
      let unanswered = state.withLock { state -> CheckedContinuation<Bool, Never>? in
        guard let index = state.asyncWaiters.firstIndex(where: { $0.id == id }) else {
          return nil
        }
        state.abandonedThrough = max(state.abandonedThrough, sequence)
        return state.asyncWaiters.remove(at: index).continuation
      }
      if let unanswered {
        seams.waitAbandoned()
        unanswered.resume(returning: false)
      }
    }
  }

  /// A waiter's deadline passed without a verdict: it stays registered (its past deadline
  /// makes the writer give up the batch it holds at its next check) and wakes the writer.
  private func deadlinePassed() {
    seams.waitExpired()
    requestWrite()
  }

  /// How long a waiter past its deadline waits for the writer's verdict: one more wait timeout.
  private func graceDeadline(after deadline: DispatchTime) -> DispatchTime {
    deadline + waitTimeout.dispatchInterval
  }

  /// Whether a waiter left without a verdict on an event the writer has not finished: the
  /// writer must then give up the batch it holds (and the next, up to that event) without
  /// writing it.
  var mustGiveUp: Bool { state.withLock { $0.abandonedThrough > $0.finished } }

  /// The earliest deadline of a call waiting for the writer to finish events, or `nil` when
  /// none waits. The writer gives up a batch it cannot write before it. (A `block` append
  /// waiting for room is not counted: past its deadline it drops its own event, which loses
  /// less than giving a whole batch up.)
  func earliestDeadline() -> DispatchTime? {
    state.withLock { state in
      let commits = state.commitWaiters.lazy.map(\.deadline).min()
      let tasks = state.asyncWaiters.lazy.map(\.deadline).min()
      return [commits, tasks].compactMap { $0 }.min()
    }
  }

  /// How many batches the writer gave up because a deadline came before the lock was free.
  var timedOutBatches: UInt64 { state.withLock { $0.timedOutBatches } }

  // MARK: Writer side

  /// Waits up to `timeout` for a wake-up, then moves every pending event into `batch`
  /// (which must be empty) and returns the sequence number of the last one.
  func takeBatch(into batch: inout Batch, waitingUpTo timeout: Duration) -> (
    last: UInt64, closed: Bool
  ) {
    // Saturating: any Duration, however large or negative, is a valid wait (at least 1 ms).
    _ = wake.wait(timeout: .now() + max(timeout, .milliseconds(1)).dispatchInterval)
    let (last, closed, spaceWaiters) = state.withLock {
      state -> (UInt64, Bool, [DispatchSemaphore]) in
      swap(&state.pending, &batch)
      state.wakeSignalled = false
      let waiters = state.spaceWaiters.map(\.signal)
      state.spaceWaiters.removeAll()
      return (state.accepted, state.closed, waiters)
    }
    for waiter in spaceWaiters { waiter.signal() }
    return (last, closed)
  }

  /// Records that the writer finished every event up to `sequence`, releasing its waiters;
  /// `timedOut` says the last batch was given up because a deadline came first.
  func markFinished(_ sequence: UInt64, timedOut: Bool = false) {
    let (blocking, suspended) = state.withLock { state in
      if timedOut { state.timedOutBatches += 1 }
      state.finished = max(state.finished, sequence)
      let finished = state.finished
      let blocking = state.commitWaiters.filter { $0.target <= finished }.map(\.signal)
      state.commitWaiters.removeAll { $0.target <= finished }
      let suspended = state.asyncWaiters.filter { $0.target <= finished }.map(\.continuation)
      state.asyncWaiters.removeAll { $0.target <= finished }
      return (blocking, suspended)
    }
    for signal in blocking { signal.signal() }
    for continuation in suspended { continuation.resume(returning: true) }
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
        state.spaceWaiters.map(\.signal)
      )
      state.commitWaiters.removeAll()
      state.asyncWaiters.removeAll()
      state.spaceWaiters.removeAll()
      return result
    }
    for signal in blocking + space { signal.signal() }
    for continuation in suspended { continuation.resume(returning: true) }
  }
}
