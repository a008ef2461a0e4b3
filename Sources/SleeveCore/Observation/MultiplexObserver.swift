/// An observer that passes every event to several observers, in the order given: the way to
/// record a control and watch it in a test (or send it to two recorders) at once.
///
/// It is an observer itself (swift-log's multiplexing handler is the model), so a control still
/// has one `observer`; composition replaces a "one observer per control" rule.
///
/// ```swift
/// let watcher = RecordingObserver()
/// let pay = Button(name: "checkout.pay", observer: MultiplexObserver([session, watcher]))
/// ```
public struct MultiplexObserver: DispatchObserver {
  /// The observers every event goes to, in order.
  public let observers: [any DispatchObserver]
  /// Each of ``observers``' session requirements (looked up once, here): the observer itself
  /// when it is a session observer, else a forwarder to it.
  private let sessions: [any SessionDispatchObserver]

  /// Creates a fan-out to `observers`, each called in order for every event.
  public init(_ observers: [any DispatchObserver]) {
    self.observers = observers
    sessions = observers.map(SuccessOutcomeForwarder.session(of:))
  }

  /// Calls `registered` on each observer.
  @MainActor public func registered(_ registration: RegistrationInfo) {
    for observer in observers { observer.registered(registration) }
  }

  /// Calls `removed` on each observer.
  @MainActor public func removed(_ removal: RemovalInfo) {
    for observer in observers { observer.removed(removal) }
  }

  /// Calls `fireBegan` on each observer.
  @MainActor public func fireBegan(_ fire: FireInfo) {
    for observer in observers { observer.fireBegan(fire) }
  }

  /// Calls `handlerFinished` on each observer.
  @MainActor public func handlerFinished(_ outcome: HandlerOutcome) {
    for observer in observers { observer.handlerFinished(outcome) }
  }

  /// Calls `fireEnded` on each observer.
  @MainActor public func fireEnded(_ fire: FireInfo, atNanoseconds: Int64) {
    for observer in observers { observer.fireEnded(fire, atNanoseconds: atNanoseconds) }
  }

  /// Calls `flagChanged` on each observer.
  @MainActor public func flagChanged(_ change: FlagChange) {
    for observer in observers { observer.flagChanged(change) }
  }

  /// Calls `interactionEnded` on each observer.
  @MainActor public func interactionEnded(_ interaction: InteractionInfo) {
    for observer in observers { observer.interactionEnded(interaction) }
  }
}

extension MultiplexObserver: SessionDispatchObserver {
  /// Passes a plain handler's success to each observer: to a session observer's fast path,
  /// and to any other as the `ok` outcome value.
  @MainActor package func handlerSucceeded(
    fire: FireID, registration: RegistrationID, startedAtNanoseconds: Int64,
    durationNanoseconds: Int64
  ) {
    for index in sessions.indices {
      sessions[index].handlerSucceeded(
        fire: fire, registration: registration, startedAtNanoseconds: startedAtNanoseconds,
        durationNanoseconds: durationNanoseconds)
    }
  }

  /// The first session unit among the observers.
  @MainActor package var rolloutSessionUnit: String? {
    for index in sessions.indices {
      if let unit = sessions[index].rolloutSessionUnit { return unit }
    }
    return nil
  }
}
