/// A control's observer, what it adds as a ``SessionDispatchObserver`` (looked up once, here,
/// never per fire) and its ``SuccessLog``, held in a class so a fire keeps them with one
/// retain: copying an `any DispatchObserver` costs value-witness calls for the copy and for
/// its destruction, on every fire and again for the ``ObservedFire`` that carries it.
///
/// `DispatchObserver` is not class-bound (``MultiplexObserver`` and ``NoOpDispatchObserver``
/// are structs), so the box is what makes the reference cheap. Main-actor isolated, as
/// controls are; the observers (`Sendable`) can be read from anywhere.
@MainActor
final class ControlObservation {
  nonisolated let observer: any DispatchObserver
  /// The same observer as a session observer, when it is one.
  nonisolated let session: (any SessionDispatchObserver)?
  /// The observer's log, read once when it was set on the control.
  let successLog: SuccessLog?

  init(_ observer: any DispatchObserver) {
    self.observer = observer
    session = observer as? any SessionDispatchObserver
    successLog = session?.successLog
  }

  /// Reports a plain handler's success: to the session observer's fast path when it has one,
  /// else as an `ok` outcome value.
  @inline(__always)
  func handlerSucceeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64
  ) {
    // Optional chaining calls the session observer in place; `if let` would copy it.
    let called: Void? = session?.handlerSucceeded(
      fire: fire, registration: registration, startedAtNanoseconds: startedAtNanoseconds,
      durationNanoseconds: durationNanoseconds)
    guard called == nil else { return }
    observer.handlerFinished(
      .succeeded(
        fire: fire, registration: registration, startedAtNanoseconds: startedAtNanoseconds,
        durationNanoseconds: durationNanoseconds))
  }
}
