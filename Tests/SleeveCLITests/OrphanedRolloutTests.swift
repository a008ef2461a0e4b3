import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// A `flag_rollouts` row whose flag event was deleted (an orphan no reader sees) never makes a
/// writer fail: the next event given its id gets its own share in its place.
@Suite("Orphaned rollout rows")
struct OrphanedRolloutTests {
  /// Leaves an orphaned share of 75% under the id the next flag event of `connection` gets.
  static func orphan(in connection: Connection) throws {
    try connection.execute("PRAGMA foreign_keys = OFF")
    try connection.execute(
      """
      INSERT INTO flag_rollouts (flag_event_id, basis_points)
      VALUES ((SELECT coalesce(max(id), 0) + 1 FROM flag_events), 7500)
      """)
    try connection.execute("PRAGMA foreign_keys = ON")
  }

  static let latestShare = """
    SELECT r.basis_points FROM flag_events e JOIN flag_rollouts r ON r.flag_event_id = e.id
    WHERE e.key = ? ORDER BY e.id DESC LIMIT 1
    """

  @Test("sleeve rollout over an orphaned share records its own share, exit 0")
  func rolloutCommandReplacesTheOrphan() async throws {
    let fixture = try FixtureDatabase.standard()
    try Self.orphan(in: fixture.connection)
    let result = await CLIRunner.run([
      "rollout", "new-pay", "--percent", "25", "--db", fixture.path,
    ])
    #expect(result.exit == 0, "\(result.error)")
    let statement = try fixture.connection.prepare(Self.latestShare)
    try statement.bind("new-pay", at: 1)
    #expect(try statement.step())
    #expect(statement.int64(at: 0) == 2_500)
  }

  @Test("a recorder's rollout change over an orphaned share is written, nothing failed")
  @MainActor
  func recorderReplacesTheOrphan() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("orphan.sqlite")
    try Self.orphan(in: SleeveDatabase.openForWriting(path: path))
    let recorder = try await Recorder(path: path)
    let session = try await recorder.startSession(name: "orphan")
    let flags = InMemoryFlagProvider(
      ["new-checkout": .rollingOut(percent: RolloutPercentage(basisPoints: 2_500)!)],
      definitions: [FlagDefinition(key: "new-checkout", owner: "payments")])
    session.record(flags)
    flags.set(
      "new-checkout", to: .rollingOut(percent: RolloutPercentage(basisPoints: 500)!),
      actor: "tester")
    try await session.end()
    let reader = try Connection(path: path, mode: .readOnly)
    #expect(try reader.scalarInt("SELECT failed_events + write_errors FROM sessions") == 0)
    let statement = try reader.prepare(Self.latestShare)
    try statement.bind("new-checkout", at: 1)
    #expect(try statement.step())
    #expect(statement.int64(at: 0) == 500)
    #expect(
      try reader.scalarInt("SELECT count(*) FROM flag_rollouts WHERE basis_points = 7500") == 0)
  }
}
