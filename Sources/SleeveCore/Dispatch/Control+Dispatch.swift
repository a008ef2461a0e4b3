/// Dispatch: a fire visits the entries that matched when it began, in registration order.
extension Control {
  /// Fires `events` programmatically (origin `programmatic`): handlers run even while the
  /// control is disabled, as `UIControl.sendActions(for:)` does. Sending an empty mask does
  /// nothing.
  public func sendActions(for events: ControlEvents) {
    fire(events, origin: .programmatic)
  }

  @inline(__always)
  func fire(_ events: ControlEvents, origin: FireOrigin) {
    guard !events.isEmpty else { return }
    if isObserved, let observation {
      fireObserved(events, origin: origin, observation: observation)
    } else {
      fireUnobserved(events)
    }
  }

  /// The hot path: no clock, no event values, no allocation, no copy of the registry. It
  /// touches only the nesting depth and the registry's fire bracket; anything but a plain
  /// handler of an unchanged registry goes to ``invokeUnobserved(_:fireUnit:)``.
  @inline(__always)
  private func fireUnobserved(_ events: ControlEvents) {
    let depth = FireNesting.depth
    guard depth < FireNesting.limit else { return }
    FireNesting.depth = depth &+ 1
    let version = registry.version
    registry.beginFire()
    defer {
      registry.endFire()
      FireNesting.depth = depth
    }
    var fireUnit: UInt64 = 0
    let count = registry.slots.count
    var index = 0
    while index < count {
      guard registry.version == version else {
        // A handler changed the registry: go on over the slots as they were at the start.
        finishOverPinnedSlots(from: index, version: version, events: events, fireUnit: &fireUnit)
        return
      }
      if registry.slots[index].events.intersects(events) {
        // Neither the entry nor its closure is retained: the fire bracket keeps the array
        // that holds them alive until this fire ends (``HandlerRegistry/unretainedEntry(at:)``).
        registry.unretainedEntry(at: index).withGuaranteedReference { entry in
          if entry.isPlain {
            // Optional chaining calls the stored closure in place; `if let` would copy it.
            do { try entry.plainHandler?(self) } catch {}
          } else {
            invokeUnobserved(entry, fireUnit: &fireUnit)
          }
        }
      }
      index += 1
    }
  }

  /// The rest of an unobserved fire whose registry changed under it: the slots from `index`
  /// as they were when it began, each as it is now.
  @inline(never)
  private func finishOverPinnedSlots(
    from index: Int, version: UInt64, events: ControlEvents, fireUnit: inout UInt64
  ) {
    let slots = registry.slotsAtFireStart(version: version)
    for slot in slots[index...] where slot.events.intersects(events) {
      guard let live = slot.entry.current, live.events.intersects(events) else { continue }
      invokeUnobserved(live, fireUnit: &fireUnit)
    }
  }

  /// An entry the unobserved fast path does not call directly (owned, gated, async).
  @inline(never)
  private func invokeUnobserved(_ entry: HandlerEntry, fireUnit: inout UInt64) {
    var unread: Int64 = 0
    invoke(entry, in: nil, clock: &unread, fireUnit: &fireUnit)
  }

  /// The observed path. One clock reading per handler: the reading that ends one handler
  /// starts the next, and the last one ends the fire.
  private func fireObserved(
    _ events: ControlEvents, origin: FireOrigin, observation: ControlObservation
  ) {
    let observed = beginObservedFire(events, origin: origin, observation: observation)
    // The observer (and its log) this fire began with, even if a handler sets another: the
    // caller holds `observation` for the whole fire, so the log is used unretained.
    let unretainedLog = observation.successLog.map(Unmanaged.passUnretained)
    var clock = observed.fire.atNanoseconds
    let snapshot = registry.slots
    if FireNesting.depth >= FireNesting.limit {
      for slot in snapshot where slot.events.intersects(events) {
        observed.report(slot.entry.id, .recursionLimit, startedAt: clock)
      }
    } else {
      let outer = FireNesting.observedFire
      FireNesting.depth += 1
      FireNesting.observedFire = (observed.fire.id, FireNesting.depth)
      defer {
        FireNesting.depth -= 1
        FireNesting.observedFire = outer
      }
      var fireUnit: UInt64 = 0
      let version = registry.version
      for index in snapshot.indices where snapshot[index].events.intersects(events) {
        // While the registry is unchanged, a plain entry is live: call it directly. `snapshot`
        // holds the entry until the fire ends, so neither it nor its closure is retained.
        if registry.version == version,
          Unmanaged.passUnretained(snapshot[index].entry).withGuaranteedReference({ entry in
            guard entry.isPlain else { return false }
            let start = clock
            do {
              try entry.plainHandler?(self)
              clock = MonotonicClock.nanoseconds()
              if let unretainedLog {
                unretainedLog.withGuaranteedReference { log in
                  log.append(
                    fire: observed.fire.id, registration: entry.id, startedAt: start,
                    duration: clock - start)
                }
              } else {
                if observation.isSession {
                  observation.session.handlerSucceeded(
                    fire: observed.fire.id, registration: entry.id, startedAtNanoseconds: start,
                    durationNanoseconds: clock - start)
                } else {
                  observed.report(entry.id, .ok, startedAt: start, duration: clock - start)
                }
              }
            } catch {
              clock = MonotonicClock.nanoseconds()
              observed.report(
                entry.id, .failed, startedAt: start, duration: clock - start, error: error)
            }
            return true
          })
        {
          continue
        }
        let entry = snapshot[index].entry
        guard let live = entry.current, live.events.intersects(events) else {
          observed.report(entry.id, .skipped(.removed), startedAt: clock)
          continue
        }
        invoke(live, in: observed, clock: &clock, fireUnit: &fireUnit)
      }
    }
    observation.observer.fireEnded(observed.fire, atNanoseconds: clock)
    observation.successLog?.removeAll()
  }

  /// A disabled control's interaction: nothing runs; an observer sees the fire and each
  /// matching handler as `skipped(disabled)`.
  func reportSuppressedInteraction(_ events: ControlEvents) {
    guard !events.isEmpty, let observation else { return }
    let observed = beginObservedFire(events, origin: .interaction, observation: observation)
    let clock = observed.fire.atNanoseconds
    for slot in registry.slots where slot.events.intersects(events) {
      observed.report(slot.entry.id, .skipped(.disabled), startedAt: clock)
    }
    observation.observer.fireEnded(observed.fire, atNanoseconds: clock)
  }

  private func beginObservedFire(
    _ events: ControlEvents, origin: FireOrigin, observation: ControlObservation
  ) -> ObservedFire {
    let fire = FireInfo(
      id: IdentifierCounter.nextFire(), control: info, events: events, origin: origin,
      parent: FireNesting.parentOfNextFire, depth: FireNesting.depth + 1,
      atNanoseconds: MonotonicClock.nanoseconds())
    InteractionScope.note(fire, of: self)
    observation.observer.fireBegan(fire)
    return ObservedFire(fire: fire, observation: observation)
  }

  /// Runs one live entry: checks its owner, evaluates its flag, then calls the chosen body.
  ///
  /// - Parameters:
  ///   - clock: For observed fires, the latest clock reading: the handler's start on entry, its
  ///     end (the next handler's start) on return. Untouched when unobserved.
  ///   - fireUnit: An unobserved fire's rollout unit, drawn by its first handler gated by a
  ///     rollout by fire (0 until then). Unused when observed (the fire's id is the unit).
  private func invoke(
    _ entry: HandlerEntry, in observed: ObservedFire?, clock: inout Int64,
    fireUnit: inout UInt64
  ) {
    var anchor: AnyObject?
    if entry.anchorType != nil {
      guard let liveAnchor = entry.anchor else {
        observed?.report(entry.id, .ownerReleased, startedAt: clock)
        remove(entry, reason: .ownerReleased)
        return
      }
      anchor = liveAnchor
    }
    var body = entry.primary
    var evaluation: FlagEvaluation?
    if let key = entry.flagKey {
      let state = entry.flagKeyIsValid ? flags?.state(of: key) : nil
      var rollout: FlagEvaluation.Rollout?
      if case .rollingOut = state, let flags {
        rollout = rolloutAssignment(of: key, by: flags, in: observed, fireUnit: &fireUnit)
      }
      let flag = FlagEvaluation(
        key: key, state: state, keyIsValid: entry.flagKeyIsValid, rollout: rollout)
      evaluation = flag
      if flag.variant == .off {
        guard let fallback = entry.fallback else {
          observed?.report(entry.id, .skipped(.flagOff), flag: flag, startedAt: clock)
          return
        }
        body = fallback
      }
    }
    switch body {
    case .sync(let handler):
      runSync(entry.id, in: observed, flag: evaluation, clock: &clock) { try handler(self) }
    case .anchoredSync(let handler):
      guard let anchor else { return }
      runSync(entry.id, in: observed, flag: evaluation, clock: &clock) {
        try handler(anchor, self)
      }
    case .async(let handler):
      startTask(for: entry.id, in: observed, flag: evaluation, startedAt: clock) {
        try await handler(self)
      }
      if observed != nil { clock = MonotonicClock.nanoseconds() }
    case .anchoredAsync(let handler):
      guard let anchor else { return }
      startTask(for: entry.id, in: observed, flag: evaluation, startedAt: clock) {
        try await handler(anchor, self)
      }
      if observed != nil { clock = MonotonicClock.nanoseconds() }
    }
  }

  @inline(__always)
  private func runSync(
    _ registration: RegistrationID, in observed: ObservedFire?, flag: FlagEvaluation?,
    clock: inout Int64, _ call: () throws -> Void
  ) {
    guard let observed else {
      do { try call() } catch {}
      return
    }
    let start = clock
    do {
      try call()
      clock = MonotonicClock.nanoseconds()
      observed.report(registration, .ok, flag: flag, startedAt: start, duration: clock - start)
    } catch {
      clock = MonotonicClock.nanoseconds()
      observed.report(
        registration, .failed, flag: flag, startedAt: start, duration: clock - start,
        error: error)
    }
  }
}
