import SleeveCore
import SleeveStore

/// Where SleeveCore's flag states meet the names the store records
/// (`RecordCodes.FlagChangeState`): the core does not import the store, so the recorder maps
/// the two here, exhaustively both ways, and `FlagStateNameTests` holds each state's `name`
/// equal to its recorded name.
extension FlagState {
  /// The name this state is recorded under.
  var recorded: RecordCodes.FlagChangeState {
    switch self {
    case .enabled: .enabled
    case .disabled: .disabled
    case .rolledBack: .rolledBack
    case .rollingOut: .rollingOut
    }
  }

  /// The state a recorded change names: a rollback with its reason, a rollout with its share;
  /// `nil` for a name this binary does not know or a rollout without a valid share.
  init?(recorded change: FlagLedger.Change) {
    switch RecordCodes.FlagChangeState(rawValue: change.state) {
    case .enabled?: self = .enabled
    case .disabled?: self = .disabled
    case .rolledBack?: self = .rolledBack(reason: change.reason ?? "")
    case .rollingOut?:
      guard
        let percent = change.rolloutBasisPoints.flatMap(RolloutPercentage.init(basisPoints:))
      else { return nil }
      self = .rollingOut(percent: percent)
    case nil: return nil
    }
  }
}

extension FlagEventWriter.Row {
  /// The row of `change`, recorded by session `session` at the times given: a rollback keeps
  /// its reason, a rollout its share.
  init(_ change: FlagChange, session: Int64, atUnixNanoseconds: Int64, atNanoseconds: Int64) {
    var reason: String?
    var share: Int?
    switch change.state {
    case .rolledBack(let why): reason = why
    case .rollingOut(let percent): share = percent.basisPoints
    case .enabled, .disabled: break
    }
    self.init(
      session: session, key: change.key, state: change.state.recorded.name,
      rolloutBasisPoints: share, reason: reason, actor: change.actor,
      atUnixNanoseconds: atUnixNanoseconds, atNanoseconds: atNanoseconds)
  }
}
