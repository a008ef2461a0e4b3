import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// A flag change recorded by a session (the recorder's batch writer) and the same change made
/// from the command line (`FlagLedger.record`) write the same `flag_events` row and share:
/// both go through `FlagEventWriter`.
@MainActor
@Suite("One writer of flag events")
struct FlagEventWriterAgreementTests {
  /// Longer than every cap, so both paths must cap alike.
  static let actor = String(repeating: "a", count: 1_500) + "é"
  static let reason = String(repeating: "r", count: 5_000)
  static let changes: [FlagState] = [
    .enabled, .disabled, .rolledBack(reason: reason),
    .rollingOut(percent: RolloutPercentage(basisPoints: 2_500)!),
    .rollingOut(percent: .everyone),
  ]

  static let columns = """
    SELECT e.key, e.state, e.reason, e.actor, r.basis_points FROM flag_events e
    LEFT JOIN flag_rollouts r ON r.flag_event_id = e.id
    """

  @Test("a session and the command line write identical rows for the same changes")
  func bothPathsAgree() async throws {
    let directory = TemporaryDirectory()
    let recorded = directory.path("session.sqlite")
    let recorder = try await Recorder(path: recorded)
    let session = try await recorder.startSession(name: "flags")
    let flags = InMemoryFlagProvider()
    session.record(flags)
    for state in Self.changes { flags.set("new-checkout", to: state, actor: Self.actor) }
    try await session.end()

    let typed = directory.path("ledger.sqlite")
    let ledger = FlagLedger(connection: try SleeveDatabase.openForWriting(path: typed))
    for state in Self.changes {
      var reason: String?
      var share: Int?
      if case .rolledBack(let why) = state { reason = why }
      if case .rollingOut(let percent) = state { share = percent.basisPoints }
      try ledger.record(
        FlagLedger.Change(
          key: "new-checkout", state: state.name, reason: reason, actor: Self.actor,
          rolloutBasisPoints: share))
    }

    let fromSession = try Inspector(path: recorded).rows(Self.columns + " ORDER BY e.id")
    let fromLedger = try Inspector(path: typed).rows(Self.columns + " ORDER BY e.id")
    #expect(fromSession.count == Self.changes.count)
    #expect(fromSession == fromLedger)
    // What differs is only where each comes from: a session and its clock, or neither.
    let sessionRows = try Inspector(path: recorded).count(
      "flag_events", where: "session_id IS NOT NULL AND at_ns IS NOT NULL")
    let ledgerRows = try Inspector(path: typed).count(
      "flag_events", where: "session_id IS NULL AND at_ns IS NULL")
    #expect(sessionRows == Self.changes.count)
    #expect(ledgerRows == Self.changes.count)
  }
}
