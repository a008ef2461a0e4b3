/// The state of a feature flag at one moment.
///
/// `enabled` runs a gated handler's primary closure; `disabled` and `rolledBack` run its
/// fallback (or skip it with reason `flagOff` when it has none); `rollingOut` runs the primary
/// for the share of units ``RolloutHash`` assigns to `on` and the fallback for the others.
public enum FlagState: Hashable, Sendable {
  /// The flag is on: gated handlers run their primary closure.
  case enabled
  /// The flag is off: gated handlers run their fallback.
  case disabled
  /// The flag was switched off as a kill switch, for the reason given.
  case rolledBack(reason: String)
  /// The flag is on for `percent` of its units (``RolloutUnit``), concurrently with `off`
  /// for the rest: the same unit always gets the same variant at the same percentage.
  case rollingOut(percent: RolloutPercentage)

  /// `enabled`, `disabled`, `rolledBack` or `rollingOut`: the stable name recorded and shown
  /// by the CLI.
  public var name: String {
    switch self {
    case .enabled: "enabled"
    case .disabled: "disabled"
    case .rolledBack: "rolledBack"
    case .rollingOut: "rollingOut"
    }
  }

  /// Whether gated handlers run their primary closure in this state for every unit (only
  /// `enabled`; a rollout decides per unit).
  public var isOn: Bool { self == .enabled }

  /// The share served `on`: 100% enabled, the rollout's share rolling out, 0% otherwise.
  public var servedPercentage: RolloutPercentage {
    switch self {
    case .enabled: .everyone
    case .rollingOut(let percent): percent
    case .disabled, .rolledBack: RolloutPercentage(basisPoints: 0)!
    }
  }
}

/// Which side of a flag-gated handler ran: the primary (`on`) or the fallback (`off`).
public enum FlagVariant: String, Hashable, Sendable {
  /// The primary closure ran (the flag was enabled).
  case on
  /// The fallback ran, or nothing did (the flag was disabled, rolled back or unknown).
  case off
}

/// The evaluation of one flag for one handler invocation, as OpenFeature reports it: the key,
/// the variant served, and the state that decided it (`nil` when the provider does not know
/// the flag, which serves `off`); for a percentage rollout, the share and the unit's
/// assignment too.
public struct FlagEvaluation: Hashable, Sendable {
  /// How a percentage rollout served this invocation.
  public struct Rollout: Hashable, Sendable {
    /// The unit assigned (the plan's, else ``RolloutUnit/fire``).
    public let unit: RolloutUnit
    /// The unit's assignment hash (``RolloutHash``), or `nil` when the unit was unknown (a
    /// ``RolloutUnit/key(_:)`` the app had not supplied): then the invocation was served
    /// `off` outside the randomization, and no cohort counts it.
    public let assignment: UInt64?

    /// A rollout serving.
    public init(unit: RolloutUnit, assignment: UInt64?) {
      self.unit = unit
      self.assignment = assignment
    }

    /// Whether the unit is served `on` at `percent`.
    public func isOn(at percent: RolloutPercentage) -> Bool {
      assignment.map { RolloutHash.isOn($0, at: percent) } ?? false
    }
  }

  /// The flag's key.
  public let key: String
  /// The side that was served.
  public let variant: FlagVariant
  /// The provider's state for the flag, or `nil` when the flag is unknown to it.
  public let state: FlagState?
  /// For a `rollingOut` state, how the unit was assigned; `nil` otherwise.
  public let rollout: Rollout?

  /// For a `rollingOut` state, the share served `on`; `nil` otherwise.
  public var rolloutPercent: RolloutPercentage? {
    if case .rollingOut(let percent) = state { percent } else { nil }
  }

  /// Evaluates `key` against a state; an unknown flag (`nil`) serves `off`, and so does a key
  /// that breaks ``FlagKey``'s rule, whatever state is given for it. A `rollingOut` state
  /// needs `rollout` (the unit's assignment) to serve `on`; without one it serves `off`.
  public init(key: String, state: FlagState?, rollout: Rollout? = nil) {
    self.init(key: key, state: state, keyIsValid: FlagKey.isValid(key), rollout: rollout)
  }

  /// Evaluates `key` whose validity is already known (dispatch decides it once per
  /// registration, so a fire never scans the key again).
  init(key: String, state: FlagState?, keyIsValid: Bool, rollout: Rollout? = nil) {
    self.key = key
    self.keyIsValid = keyIsValid
    let state = keyIsValid ? state : nil
    self.state = state
    if case .rollingOut(let percent) = state {
      self.rollout = rollout
      variant = rollout?.isOn(at: percent) == true ? .on : .off
    } else {
      self.rollout = nil
      variant = state?.isOn == true ? .on : .off
    }
  }

  /// Whether `key` keeps ``FlagKey``'s rule.
  private let keyIsValid: Bool

  /// Why this variant was served: the state's name, `unknown` for a flag the provider lacks,
  /// `invalidKey` for a key that breaks ``FlagKey``'s rule, or `unassigned` for a rollout
  /// whose unit was unknown.
  public var reason: String {
    guard keyIsValid else { return "invalidKey" }
    if let rollout, rollout.assignment == nil { return "unassigned" }
    if case .rollingOut = state, rollout == nil { return "unassigned" }
    return state?.name ?? "unknown"
  }
}
