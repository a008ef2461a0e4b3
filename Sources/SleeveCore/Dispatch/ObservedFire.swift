/// A fire in progress together with the observer it reports to. Exists only for observed
/// fires: unobserved ones pass `nil` and build nothing.
struct ObservedFire: Sendable {
  let fire: FireInfo
  let observer: any DispatchObserver

  /// Reports one handler's outcome.
  func report(
    _ registration: RegistrationID, _ status: OutcomeStatus, flag: FlagEvaluation? = nil,
    isAsync: Bool = false, startedAt: Int64? = nil, duration: Int64 = 0,
    error: (any Error)? = nil
  ) {
    observer.handlerFinished(
      HandlerOutcome(
        fire: fire.id, registration: registration, control: fire.control, status: status,
        flag: flag, isAsync: isAsync,
        startedAtNanoseconds: startedAt ?? MonotonicClock.nanoseconds(),
        durationNanoseconds: duration, error: error))
  }
}
