/// Receives what happens on the controls it observes: registrations, removals, fires, handler
/// outcomes and flag changes.
///
/// Every requirement is called synchronously on the main actor (and declared so: an
/// implementation may use main-actor state without locks), in the order things happen, and
/// has a no-op default: implement only what you need, and keep each call cheap (append to a
/// buffer; never block or do I/O). Only observed controls build these values: a control
/// without an observer reads no clock and builds no event.
///
/// ```swift
/// struct PrintingObserver: DispatchObserver {
///   func handlerFinished(_ outcome: HandlerOutcome) { print(outcome.status) }
/// }
/// let button = Button(name: "checkout.submit", observer: PrintingObserver())
/// ```
public protocol DispatchObserver: Sendable {
  /// A handler was added, its events changed, or it already existed when this observer was
  /// attached (see ``RegistrationInfo/change``).
  @MainActor func registered(_ registration: RegistrationInfo)
  /// A handler was removed, with the reason.
  @MainActor func removed(_ removal: RemovalInfo)
  /// A fire started; its outcomes follow, then ``fireEnded(_:atNanoseconds:)``.
  @MainActor func fireBegan(_ fire: FireInfo)
  /// A handler finished (or was not run), with its status and duration. Async handlers report
  /// when they complete, which may be after their fire ended.
  @MainActor func handlerFinished(_ outcome: HandlerOutcome)
  /// A plain handler (synchronous, with no owner and no flag) returned without throwing: the
  /// common outcome, reported without building a ``HandlerOutcome``. The default builds that
  /// outcome (status `ok`) and calls ``handlerFinished(_:)``, so an observer that implements
  /// only `handlerFinished` still sees every outcome; implement this to record the common
  /// case cheaply.
  @MainActor func handlerSucceeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64)
  /// Where dispatch writes plain handlers' successes instead of calling
  /// ``handlerSucceeded(fire:registration:startedAtNanoseconds:durationNanoseconds:)``, or
  /// `nil` (the default) for the calls. Read once when the observer is set on a control;
  /// ``SuccessLog`` says what an observer that returns one must do to keep outcomes in order.
  @MainActor var successLog: SuccessLog? { get }
  /// A fire ended: every synchronous handler of it has reported.
  @MainActor func fireEnded(_ fire: FireInfo, atNanoseconds: Int64)
  /// A flag changed state in a provider this observer watches.
  @MainActor func flagChanged(_ change: FlagChange)
  /// A user interaction ended: its fires (and their synchronous outcomes) were reported
  /// before this.
  @MainActor func interactionEnded(_ interaction: InteractionInfo)
  /// The unit a ``RolloutUnit/session`` rollout assigns the fires this observer sees (a
  /// recording session's UUID), or `nil` to use the process's.
  @MainActor var rolloutSessionUnit: String? { get }
}

extension DispatchObserver {
  /// Does nothing.
  @MainActor public func registered(_ registration: RegistrationInfo) {}
  /// Does nothing.
  @MainActor public func removed(_ removal: RemovalInfo) {}
  /// Does nothing.
  @MainActor public func fireBegan(_ fire: FireInfo) {}
  /// Does nothing.
  @MainActor public func handlerFinished(_ outcome: HandlerOutcome) {}
  /// Calls ``handlerFinished(_:)`` with the outcome: status `ok`, not async, no flag, no
  /// error.
  @MainActor public func handlerSucceeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64
  ) {
    handlerFinished(
      HandlerOutcome(
        fire: fire, registration: registration, status: .ok, flag: nil, isAsync: false,
        startedAtNanoseconds: startedAtNanoseconds, durationNanoseconds: durationNanoseconds,
        error: nil))
  }
  /// None: plain handlers' successes are calls.
  @MainActor public var successLog: SuccessLog? { nil }
  /// Does nothing.
  @MainActor public func fireEnded(_ fire: FireInfo, atNanoseconds: Int64) {}
  /// Does nothing.
  @MainActor public func flagChanged(_ change: FlagChange) {}
  /// Does nothing.
  @MainActor public func interactionEnded(_ interaction: InteractionInfo) {}
  /// None: a session rollout assigns by the process.
  @MainActor public var rolloutSessionUnit: String? { nil }
}

/// An observer that ignores everything. Attaching it is the same as attaching none: the
/// control keeps its zero-cost path.
public struct NoOpDispatchObserver: DispatchObserver {
  /// Creates the no-op observer.
  public init() {}
}
