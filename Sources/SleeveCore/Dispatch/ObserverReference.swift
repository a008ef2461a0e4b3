/// A control's observer and its ``SuccessLog``, held in a class so a fire keeps both with one
/// retain: copying an `any DispatchObserver` costs value-witness calls for the copy and for
/// its destruction, on every fire and again for the ``ObservedFire`` that carries it.
///
/// `DispatchObserver` is not class-bound (``MultiplexObserver`` and ``NoOpDispatchObserver``
/// are structs), so the box is what makes the reference cheap. Main-actor isolated, as
/// controls are; the observer (`Sendable`) can be read from anywhere.
@MainActor
final class ObserverReference {
  nonisolated let observer: any DispatchObserver
  /// The observer's log, read once when it was set on the control.
  let successLog: SuccessLog?

  init(_ observer: any DispatchObserver) {
    self.observer = observer
    successLog = observer.successLog
  }
}
