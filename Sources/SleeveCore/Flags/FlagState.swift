/// The state of a feature flag at one moment.
///
/// Only `enabled` runs a gated handler's primary closure; `disabled` and `rolledBack` run its
/// fallback (or skip it with reason `flagOff` when it has none).
public enum FlagState: Hashable, Sendable {
  /// The flag is on: gated handlers run their primary closure.
  case enabled
  /// The flag is off: gated handlers run their fallback.
  case disabled
  /// The flag was switched off as a kill switch, for the reason given.
  case rolledBack(reason: String)

  /// `enabled`, `disabled` or `rolledBack`: the stable name recorded and shown by the CLI.
  public var name: String {
    switch self {
    case .enabled: "enabled"
    case .disabled: "disabled"
    case .rolledBack: "rolledBack"
    }
  }

  /// Whether gated handlers run their primary closure in this state.
  public var isOn: Bool { self == .enabled }
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
/// the flag, which serves `off`).
public struct FlagEvaluation: Hashable, Sendable {
  /// The flag's key.
  public let key: String
  /// The side that was served.
  public let variant: FlagVariant
  /// The provider's state for the flag, or `nil` when the flag is unknown to it.
  public let state: FlagState?

  /// Evaluates `key` against a state; an unknown flag (`nil`) serves `off`, and so does a key
  /// that breaks ``FlagKey``'s rule, whatever state is given for it.
  public init(key: String, state: FlagState?) {
    self.init(key: key, state: state, keyIsValid: FlagKey.isValid(key))
  }

  /// Evaluates `key` whose validity is already known (dispatch decides it once per
  /// registration, so a fire never scans the key again).
  init(key: String, state: FlagState?, keyIsValid: Bool) {
    self.key = key
    self.keyIsValid = keyIsValid
    self.state = keyIsValid ? state : nil
    self.variant = self.state?.isOn == true ? .on : .off
  }

  /// Whether `key` keeps ``FlagKey``'s rule.
  private let keyIsValid: Bool

  /// Why this variant was served: the state's name, `unknown` for a flag the provider lacks,
  /// or `invalidKey` for a key that breaks ``FlagKey``'s rule.
  public var reason: String {
    keyIsValid ? state?.name ?? "unknown" : "invalidKey"
  }
}
