/// A ``FlagProvider`` that keeps flag states and definitions in memory: for tests, previews and
/// apps that load flags themselves.
///
/// Reads are safe from any thread. Changes are made on the main actor and reported to every
/// observer added with ``addObserver(_:)`` as a ``FlagChange``, so a recorder sees them in order
/// with the fires around them. A class observer (a recording session) is held weakly: the
/// provider never keeps a session, its recorder or its file alive, and stops calling it once it
/// is gone or removed with ``removeObserver(_:)``.
///
/// ```swift
/// let flags = InMemoryFlagProvider(["new-checkout": .enabled])
/// flags.set("new-checkout", to: .rolledBack(reason: "p99 over budget"), actor: "oncall")
/// ```
public final class InMemoryFlagProvider: FlagProvider {
  private struct Contents {
    var states: [String: FlagState]
    private(set) var definitions: [String: FlagDefinition] = [:]
    /// Each defined flag's rollout inputs and the unit keys, so a fire hashes only its unit.
    var rollouts = RolloutInputsTable()
    var observers: [ObserverReference] = []

    init(states: [String: FlagState]) { self.states = states }

    mutating func define(_ definition: FlagDefinition) {
      definitions[definition.key] = definition
      rollouts.define(definition, as: definition.key)
    }
  }

  /// An observer held weakly when it is a class instance, strongly when it is a value.
  private struct ObserverReference {
    weak var object: AnyObject?
    let value: (any DispatchObserver)?
    let identity: ObjectIdentifier?

    init(_ observer: any DispatchObserver) {
      if Swift.type(of: observer) is AnyClass {
        let object = observer as AnyObject
        self.object = object
        value = nil
        identity = ObjectIdentifier(object)
      } else {
        value = observer
        identity = nil
      }
    }

    /// The observer, or `nil` once a weakly held one is gone.
    var observer: (any DispatchObserver)? { value ?? object as? any DispatchObserver }
  }

  private let contents: Locked<Contents>

  /// Creates a provider with initial states and definitions. A later definition with the same
  /// key as an earlier one wins.
  public init(_ states: [String: FlagState] = [:], definitions: [FlagDefinition] = []) {
    var initial = Contents(states: states)
    for definition in definitions { initial.define(definition) }
    contents = Locked(initial)
  }

  /// The flag's current state, or `nil` for a key never set.
  public func state(of key: String) -> FlagState? {
    contents.withLock { $0.states[key] }
  }

  /// The flag's definition, or `nil` for a key never defined.
  public func definition(of key: String) -> FlagDefinition? {
    contents.withLock { $0.definitions[key] }
  }

  /// What assigning a unit to flag `key`'s rollout needs, as ``definition(of:)`` and
  /// ``unitKey(named:)`` would give it, from one lookup under one lock: from the flag's
  /// definition, or from ``RolloutPlan/none`` for a key never defined.
  public func rolloutInputs(of key: String) -> RolloutHash.Inputs {
    contents.withLock { $0.rollouts.inputs(of: key) }
  }

  /// The value set for rollout unit key `name`, or `nil` while none is set.
  public func unitKey(named name: String) -> String? {
    contents.withLock { $0.rollouts.unitKey(named: name) }
  }

  /// Sets (or, with `nil`, clears) the value of rollout unit key `name`: the user or device
  /// id a ``RolloutUnit/key(_:)`` rollout assigns by. Fires after the change use it.
  public func setUnitKey(_ value: String?, named name: String) {
    contents.withLock { $0.rollouts.setUnitKey(value, named: name) }
  }

  /// Every known flag's definition, sorted by key.
  public var definitions: [FlagDefinition] {
    contents.withLock { $0.definitions.values.sorted { $0.key < $1.key } }
  }

  /// Adds or replaces a flag's definition. Its state is unchanged.
  public func define(_ definition: FlagDefinition) {
    contents.withLock { $0.define(definition) }
  }

  /// Sets a flag's state and reports the change to every observer, even when the state is
  /// the same as before (a repeated rollback is still an event worth recording).
  ///
  /// - Parameters:
  ///   - key: The flag's key; an unknown key is added.
  ///   - state: The new state.
  ///   - actor: Who made the change, when known.
  @MainActor
  public func set(_ key: String, to state: FlagState, actor: String? = nil) {
    let (previous, definition, observers) = contents.withLock { contents in
      let previous = contents.states.updateValue(state, forKey: key)
      contents.observers.removeAll { $0.observer == nil }
      return (previous, contents.definitions[key], contents.observers.compactMap(\.observer))
    }
    guard !observers.isEmpty else { return }
    let change = FlagChange(
      key: key, previous: previous, state: state, actor: actor, definition: definition,
      atNanoseconds: MonotonicClock.nanoseconds())
    for observer in observers { observer.flagChanged(change) }
  }

  /// Adds an observer that receives every later state change: weakly held when it is a class
  /// instance, so adding one never extends its life.
  public func addObserver(_ observer: any DispatchObserver) {
    contents.withLock { contents in
      contents.observers.removeAll { $0.observer == nil }
      contents.observers.append(ObserverReference(observer))
    }
  }

  /// Stops reporting changes to `observer` (a class instance; value observers stay).
  public func removeObserver(_ observer: any DispatchObserver & AnyObject) {
    let identity = ObjectIdentifier(observer)
    contents.withLock { contents in
      contents.observers.removeAll { $0.identity == identity || $0.observer == nil }
    }
  }

  /// How many observers are still reported to (tests).
  package var observerCount: Int {
    contents.withLock { contents in contents.observers.filter { $0.observer != nil }.count }
  }
}
