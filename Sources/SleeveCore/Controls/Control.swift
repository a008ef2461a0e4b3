/// A headless model of `UIControl`: a named control whose events run closure handlers and
/// target-actions, in registration order, with every outcome reported to an observer.
///
/// Main-actor isolated, as UIKit's controls are. Subclass it for your own controls and fire
/// their interactions with ``sendInteraction(for:)``.
///
/// ```swift
/// let submit = Button(name: "checkout.submit")
/// submit.on(.touchUpInside) { button in print("tapped", button.name) }
/// submit.tap()
/// ```
@MainActor
open class Control {
  /// The name given at creation; recorded sessions and the CLI group by it.
  public let name: String
  /// The control's process-unique identity.
  public let id: ControlID

  /// Whether simulated user interactions reach the handlers. While `false`,
  /// ``sendInteraction(for:)`` runs nothing (observers see `skipped(disabled)`);
  /// ``sendActions(for:)`` still dispatches, as in UIKit.
  open var isEnabled = true

  /// The flag provider gated handlers ask at fire time. `nil` serves `off` for every flag.
  public var flags: (any FlagProvider)?

  /// The observer of this control. Setting one reports every existing handler to it as
  /// ``RegistrationInfo/Change/existing``, so attaching late still describes the registry.
  /// `nil` (or ``NoOpDispatchObserver``) means no observer: fires read no clock and build
  /// no events.
  public var observer: (any DispatchObserver)? {
    get { activeObserver }
    set {
      activeObserver = newValue is NoOpDispatchObserver ? nil : newValue
      guard let activeObserver else { return }
      for entry in registry.entries {
        activeObserver.registered(info(for: entry, change: .existing))
      }
    }
  }

  /// The process-wide observer for controls created outside any ``ControlDefaults`` scope,
  /// for apps. Tests should scope theirs with ``ControlDefaults`` instead.
  public static var defaultObserver: (any DispatchObserver)?
  /// The process-wide flag provider for controls created outside any ``ControlDefaults``
  /// scope.
  public static var defaultFlags: (any FlagProvider)?

  /// How deeply fires may nest across all controls before a fire is refused with outcome
  /// `recursionLimit` (default 32; values below 1 count as 1).
  public static var nestingLimit: Int {
    get { FireNesting.limit }
    set { FireNesting.limit = max(newValue, 1) }
  }

  /// The registry: closure and target-action entries together, in registration order.
  /// Only main-actor code touches it and no access outlives a single statement, so the
  /// dynamic exclusivity check is pure cost on the hot path.
  @exclusivity(unchecked) var registry = HandlerRegistry()
  /// Main-actor only, and no access outlives a statement: unchecked for the same reason as
  /// the registry (the dynamic check cost about 190 instructions an observed fire).
  @exclusivity(unchecked) var observation: ControlObservation? {
    didSet {
      isObserved = observation != nil
      observerChanges &+= 1
    }
  }
  /// The observer (``observation``'s), `nil` when there is none.
  var activeObserver: (any DispatchObserver)? {
    get { observation?.observer }
    set { observation = newValue.map(ControlObservation.init) }
  }
  /// How many times the observer was set since init: an open interaction keeps only the
  /// fires its own observer saw (``InteractionScope``).
  var observerChanges: UInt64 = 0
  /// Mirrors `activeObserver != nil` so the hot path tests a flag, not an existential.
  var isObserved = false
  /// Async handler tasks still running, by a per-control counter.
  var runningTasks: [UInt64: RunningTask] = [:]
  var finishedBeforeTracked: Set<UInt64> = []
  var taskCounter: UInt64 = 0
  private var cachedInfo: ControlInfo?
  /// The kind given at creation, if any; else the class name.
  private let givenKind: String?
  /// The watcher of ``registeredEvents``, if any (``watchRegisteredEvents(_:)``).
  var registeredEventsWatch: RegisteredEventsWatch?

  /// Creates a control.
  ///
  /// - Parameters:
  ///   - name: A stable name, e.g. `checkout.submit`.
  ///   - kind: What observers record as the control's kind; `nil` (the default) means the
  ///     class name. A mirror of a platform control gives the platform class (`UIButton`).
  ///   - observer: This control's observer; defaults to ``ControlDefaults/observer``, then
  ///     ``defaultObserver``.
  ///   - flags: The flag provider; defaults to ``ControlDefaults/flags``, then
  ///     ``defaultFlags``.
  public init(
    name: String, kind: String? = nil, observer: (any DispatchObserver)? = nil,
    flags: (any FlagProvider)? = nil
  ) {
    self.name = name
    self.givenKind = kind
    self.id = IdentifierCounter.nextControl()
    let observer = observer ?? ControlDefaults.observer ?? Control.defaultObserver
    let active = observer is NoOpDispatchObserver ? nil : observer
    self.observation = active.map(ControlObservation.init)
    self.isObserved = active != nil
    self.flags = flags ?? ControlDefaults.flags ?? Control.defaultFlags
  }

  /// Fires `events` as a user interaction (origin `interaction`). While the control is
  /// disabled nothing runs, and an observer sees each matching handler as
  /// `skipped(disabled)`.
  ///
  /// Override it in your own control to model what an interaction changes, then call
  /// `super`; `tap()`, `toggle()` and `type(_:)` are built on it.
  ///
  /// Outside ``performInteraction(_:_:)`` (and `tap()`, `toggle()`, `type(_:)`), the fire is an
  /// interaction of its own, named by its events.
  open func sendInteraction(for events: ControlEvents) {
    guard !isObserved || InteractionScope.isOpen(for: self) else {
      performInteraction(events.description) { deliverInteraction(events) }
      return
    }
    deliverInteraction(events)
  }

  private func deliverInteraction(_ events: ControlEvents) {
    guard isEnabled else {
      reportSuppressedInteraction(events)
      return
    }
    fire(events, origin: .interaction)
  }

  /// The class name, e.g. `Button` or an app's subclass name, unless a kind was given at
  /// creation.
  public var kind: String { info.kind }

  /// The identity observers receive.
  public var info: ControlInfo {
    if let cachedInfo { return cachedInfo }
    let info = ControlInfo(
      id: id, name: name, kind: givenKind ?? String(describing: type(of: self)))
    cachedInfo = info
    return info
  }
}

/// An async handler's task and the registration it runs for.
struct RunningTask {
  let registration: RegistrationID
  let task: Task<Void, Never>
}
