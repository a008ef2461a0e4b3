/// A fire in progress together with the observer it reports to. Exists only for observed
/// fires: unobserved ones pass `nil` and build nothing. A small value (the fire's control is a
/// shared reference), passed borrowed to each handler and copied only into async tasks.
struct ObservedFire: Sendable {
  let fire: FireInfo
  let observation: ControlObservation
  /// The observer the fire reports to.
  var observer: any DispatchObserver { observation.observer }

  /// Reports one handler's outcome.
  @MainActor
  func report(
    _ registration: RegistrationID, _ status: OutcomeStatus, flag: FlagEvaluation? = nil,
    isAsync: Bool = false, startedAt: Int64, duration: Int64 = 0,
    error: (any Error)? = nil
  ) {
    observation.observer.handlerFinished(
      HandlerOutcome(
        fire: fire.id, registration: registration, status: status, flag: flag,
        isAsync: isAsync, startedAtNanoseconds: startedAt,
        durationNanoseconds: duration, error: error))
  }
}
