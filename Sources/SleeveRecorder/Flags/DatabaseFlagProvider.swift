import SleeveCore
import SleeveStore

/// A ``FlagProvider`` that reads flag states from a Sleeve database: what `sleeve rollback`,
/// `enable` and `disable` recorded there, and the states sessions recorded. A rollback takes
/// effect in the next session that opens (or ``refresh()``es) the provider, with no code
/// change.
///
/// ```swift
/// let flags = try DatabaseFlagProvider(path: "sleeve.sqlite", definitions: [newCheckout])
/// let pay = Button(name: "checkout.pay", flags: flags)
/// ```
///
/// Reads are served from memory (safe from any thread); the file is read at creation and on
/// `refresh()`.
public final class DatabaseFlagProvider: FlagProvider {
  /// The database file.
  public let path: String
  private let fallbackStates: [String: FlagState]
  private let codeDefinitions: [String: FlagDefinition]
  private let snapshot = Locked<Snapshot>(Snapshot())

  private struct Snapshot {
    var states: [String: FlagState] = [:]
    private(set) var definitions: [String: FlagDefinition] = [:]
    var rollouts = RolloutInputsTable()

    /// Replaces the definitions, keeping the unit keys, and rehashes their rollout inputs.
    mutating func setDefinitions(_ definitions: [String: FlagDefinition]) {
      self.definitions = definitions
      rollouts.replaceDefinitions(definitions)
    }
  }

  /// Reads the flags of the Sleeve database at `path`, which must exist: the provider only
  /// reads (a typo in the path is an error, never a new empty database).
  ///
  /// - Parameters:
  ///   - path: The Sleeve database.
  ///   - defaults: States for flags the database has never recorded.
  ///   - definitions: Definitions from code; they win over definitions recorded in the file.
  /// - Throws: `RecorderError` when the file is missing or cannot be read as a Sleeve
  ///   database, or holds a flag state this binary does not know.
  public init(
    path: String, defaults: [String: FlagState] = [:], definitions: [FlagDefinition] = []
  ) throws {
    self.path = path
    fallbackStates = Dictionary(
      defaults.map { (RecordedText.capped($0.key, to: .name), $0.value) },
      uniquingKeysWith: { first, _ in first })
    var byKey: [String: FlagDefinition] = [:]
    for definition in definitions {
      byKey[RecordedText.capped(definition.key, to: .name)] = definition
    }
    codeDefinitions = byKey
    try refresh()
  }

  /// Re-reads the states and definitions from the file (read-only). On failure the states
  /// read before stay in use.
  ///
  /// - Throws: `RecorderError` as `init` does.
  public func refresh() throws {
    do {
      let connection = try SleeveDatabase.openForReading(path: path)
      let ledger = FlagLedger(connection: connection)
      var states: [String: FlagState] = [:]
      var definitions: [String: FlagDefinition] = [:]
      for (key, change) in try ledger.latestStates() {
        guard let state = Self.state(change) else {
          throw StoreError.corrupt(
            path: path,
            detail: "flag '\(key)' has the unknown state '\(change.state)' in flag_events")
        }
        states[key] = state
      }
      let plans = try RolloutRecords.plans(of: nil, connection: connection)
      for (key, definition) in try ledger.latestDefinitions() {
        definitions[key] = FlagDefinition(
          key: key, owner: definition.owner,
          thresholds: FlagThresholds(
            maxErrorRate: definition.maxErrorRate,
            maxP99: definition.maxP99Nanoseconds.map { .nanoseconds($0) },
            minSamples: definition.minSamples),
          rollout: plans[key].flatMap {
            RolloutPlan(recordedUnit: $0.unit, salt: $0.salt, stages: $0.stages)
          } ?? .none,
          severities: CheckSeverity.recorded(plans[key]?.severities ?? [:]))
      }
      definitions.merge(codeDefinitions) { _, code in code }
      snapshot.withLock { snapshot in
        snapshot.states = states
        snapshot.setDefinitions(definitions)
      }
    } catch let error as StoreError {
      throw RecorderError.store(error)
    } catch let error as SQLiteError {
      throw RecorderError.sqlite(error, path: path)
    }
  }

  /// The recorded state, else the default given at creation, else `nil` (served `off`).
  /// Keys are matched as recorded, capped at `RecordedText.Limit.name`.
  public func state(of key: String) -> FlagState? {
    let recorded = RecordedText.capped(key, to: .name)
    return snapshot.withLock { $0.states[recorded] } ?? fallbackStates[recorded]
  }

  /// The definition from code, else the one last recorded in the file.
  public func definition(of key: String) -> FlagDefinition? {
    let recorded = RecordedText.capped(key, to: .name)
    return snapshot.withLock { $0.definitions[recorded] }
  }

  /// The value set for rollout unit key `name`, or `nil` while none is set.
  public func unitKey(named name: String) -> String? {
    snapshot.withLock { $0.rollouts.unitKey(named: name) }
  }

  /// Sets (or, with `nil`, clears) the value of rollout unit key `name`: the user or device
  /// id a ``RolloutUnit/key(_:)`` rollout assigns by. Fires after the change use it.
  public func setUnitKey(_ value: String?, named name: String) {
    snapshot.withLock { $0.rollouts.setUnitKey(value, named: name) }
  }

  /// What assigning a unit to flag `key`'s rollout needs, from one lookup under one lock (its
  /// definition's inputs, hashed when the file was read), else from ``RolloutPlan/none``.
  public func rolloutInputs(of key: String) -> RolloutHash.Inputs {
    let recorded = RecordedText.capped(key, to: .name)
    return snapshot.withLock { $0.rollouts.inputs(of: recorded) }
  }

  /// Every flag with a state or a definition, by key.
  public var keys: [String] {
    let known = snapshot.withLock { Set($0.states.keys).union($0.definitions.keys) }
    return known.union(fallbackStates.keys).sorted()
  }

  /// The state a recorded change names, or `nil` for a name this binary does not know.
  private static func state(_ change: FlagLedger.Change) -> FlagState? {
    FlagState(recorded: change)
  }
}
