/// A fire in progress together with the observer it reports to. Exists only for observed
/// fires: unobserved ones pass `nil` and build nothing. A class, so that handing it to each
/// handler (and to async tasks) costs a reference, not a copy of the fire's description.
final class ObservedFire: Sendable {
  let fire: FireInfo
  let observer: any DispatchObserver

  init(fire: FireInfo, observer: any DispatchObserver) {
    self.fire = fire
    self.observer = observer
  }

  /// Reports one handler's outcome.
  func report(
    _ registration: RegistrationID, _ status: OutcomeStatus, flag: FlagEvaluation? = nil,
    isAsync: Bool = false, startedAt: Int64, duration: Int64 = 0,
    error: (any Error)? = nil
  ) {
    observer.handlerFinished(
      HandlerOutcome(
        fire: fire.id, registration: registration, status: status, flag: flag,
        isAsync: isAsync, startedAtNanoseconds: startedAt,
        durationNanoseconds: duration, error: error))
  }
}
