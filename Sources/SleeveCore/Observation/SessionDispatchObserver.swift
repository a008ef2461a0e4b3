/// What a recording session's observer adds to ``DispatchObserver``, inside this package only:
/// plain handlers' successes taken in bulk, and the session's unit for rollouts by session.
///
/// Not public: these are the recorder's performance and identity hooks, not a promise to apps.
/// A control looks for this conformance once, when its observer is set
/// (``ControlObservation``), never per fire; ``MultiplexObserver`` passes both on to the
/// observers it holds that have them.
package protocol SessionDispatchObserver: DispatchObserver {
  /// A plain handler (synchronous, with no owner and no flag) returned without throwing: the
  /// common outcome, reported without building a ``HandlerOutcome``. The default builds that
  /// outcome (status `ok`) and calls ``DispatchObserver/handlerFinished(_:)``.
  @MainActor func handlerSucceeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64)
  /// Where dispatch writes plain handlers' successes instead of calling
  /// ``handlerSucceeded(fire:registration:startedAtNanoseconds:durationNanoseconds:)``, or
  /// `nil` (the default) for the calls. Read once when the observer is set on a control;
  /// ``SuccessLog`` says what an observer that returns one must do to keep outcomes in order.
  @MainActor var successLog: SuccessLog? { get }
  /// The unit a ``RolloutUnit/session`` rollout assigns the fires this observer sees (a
  /// recording session's UUID), or `nil` (the default) to use the process's.
  @MainActor var rolloutSessionUnit: String? { get }
}

extension SessionDispatchObserver {
  /// Calls ``DispatchObserver/handlerFinished(_:)`` with the outcome: status `ok`, not async,
  /// no flag, no error.
  @MainActor package func handlerSucceeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64
  ) {
    handlerFinished(
      .succeeded(
        fire: fire, registration: registration, startedAtNanoseconds: startedAtNanoseconds,
        durationNanoseconds: durationNanoseconds))
  }
  /// None: plain handlers' successes are calls.
  @MainActor package var successLog: SuccessLog? { nil }
  /// None: a session rollout assigns by the process.
  @MainActor package var rolloutSessionUnit: String? { nil }
}

extension HandlerOutcome {
  /// A plain handler's success as a value: status `ok`, not async, no flag, no error.
  static func succeeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64
  ) -> HandlerOutcome {
    HandlerOutcome(
      fire: fire, registration: registration, status: .ok, flag: nil, isAsync: false,
      startedAtNanoseconds: startedAtNanoseconds, durationNanoseconds: durationNanoseconds,
      error: nil)
  }
}

/// Stands in for an observer that is not a ``SessionDispatchObserver``, so dispatch calls the
/// session requirements unconditionally: one witness call per success, and no optional
/// existential to copy (which cost about 80 instructions a handler). Each success reaches the
/// observer as an `ok` outcome value; it names no session unit and lends no log.
final class SuccessOutcomeForwarder: SessionDispatchObserver {
  /// The observer the successes go to.
  let observer: any DispatchObserver

  init(_ observer: any DispatchObserver) { self.observer = observer }

  /// Reports the success to ``observer`` as the `ok` outcome value.
  @MainActor func handlerSucceeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64
  ) {
    observer.handlerFinished(
      .succeeded(
        fire: fire, registration: registration, startedAtNanoseconds: startedAtNanoseconds,
        durationNanoseconds: durationNanoseconds))
  }

  /// `observer` itself when it is a session observer, else a forwarder to it.
  static func session(of observer: any DispatchObserver) -> any SessionDispatchObserver {
    (observer as? any SessionDispatchObserver) ?? SuccessOutcomeForwarder(observer)
  }
}
