/// A control's observer, its ``SessionDispatchObserver`` requirements (looked up once, here,
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
  /// The observer's session requirements: the observer itself when it is a session observer,
  /// else a ``SuccessOutcomeForwarder`` to it.
  nonisolated let session: any SessionDispatchObserver
  /// The observer's log, read once when it was set on the control.
  let successLog: SuccessLog?
  /// Whether the observer is a session observer (else ``session`` only forwards).
  let isSession: Bool

  init(_ observer: any DispatchObserver) {
    self.observer = observer
    session = SuccessOutcomeForwarder.session(of: observer)
    isSession = observer is any SessionDispatchObserver
    successLog = session.successLog
  }
}
