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
  /// A fire ended: every synchronous handler of it has reported.
  @MainActor func fireEnded(_ fire: FireInfo, atNanoseconds: Int64)
  /// A flag changed state in a provider this observer watches.
  @MainActor func flagChanged(_ change: FlagChange)
  /// A user interaction ended: its fires (and their synchronous outcomes) were reported
  /// before this.
  @MainActor func interactionEnded(_ interaction: InteractionInfo)
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
  /// Does nothing.
  @MainActor public func fireEnded(_ fire: FireInfo, atNanoseconds: Int64) {}
  /// Does nothing.
  @MainActor public func flagChanged(_ change: FlagChange) {}
  /// Does nothing.
  @MainActor public func interactionEnded(_ interaction: InteractionInfo) {}
}

/// An observer that ignores everything. Attaching it is the same as attaching none: the
/// control keeps its zero-cost path.
public struct NoOpDispatchObserver: DispatchObserver {
  /// Creates the no-op observer.
  public init() {}
}
