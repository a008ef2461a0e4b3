import SleeveCore
import SleeveStore
import Testing

@testable import SleeveRecorder

/// SleeveCore's flag states and the names the store records (`RecordCodes.FlagChangeState`)
/// agree: the core does not import the store, so this holds the two tables equal.
@Suite("Flag state names")
struct FlagStateNameTests {
  static let states: [FlagState] = [
    .enabled, .disabled, .rolledBack(reason: "p99 over budget"),
    .rollingOut(percent: RolloutPercentage(basisPoints: 2_500)!),
  ]

  @Test("each core state's name is the name it is recorded under", arguments: states)
  func namesAgree(_ state: FlagState) {
    #expect(state.name == state.recorded.name)
  }

  @Test("every recorded name belongs to exactly one core state")
  func everyRecordedNameHasAState() {
    #expect(Self.states.map(\.recorded) == RecordCodes.FlagChangeState.allCases)
  }

  @Test("a recorded change reads back as the state that recorded it", arguments: states)
  func roundTrip(_ state: FlagState) {
    var reason: String?
    var share: Int?
    if case .rolledBack(let why) = state { reason = why }
    if case .rollingOut(let percent) = state { share = percent.basisPoints }
    let change = FlagLedger.Change(
      key: "k", state: state.recorded.name, reason: reason, actor: nil,
      rolloutBasisPoints: share)
    #expect(FlagState(recorded: change) == state)
  }

  @Test("an unknown name, or a rollout without a share, is no state")
  func unknownNames() {
    #expect(FlagState(recorded: .init(key: "k", state: "paused", reason: nil, actor: nil)) == nil)
    #expect(
      FlagState(
        recorded: .init(
          key: "k", state: RecordCodes.FlagChangeState.rollingOut.name, reason: nil, actor: nil))
        == nil)
  }
}
