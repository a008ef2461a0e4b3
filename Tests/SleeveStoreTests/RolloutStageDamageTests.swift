import SleeveTestSupport
import Testing

@testable import SleeveStore

/// A damaged stage of a recorded rollout plan is refused with the value at fault, never with a
/// sentence that blames another column.
@Suite("Damaged rollout stages")
struct RolloutStageDamageTests {
  /// A file whose session 1 defines flag `f` with the stages `stages` (share, min_samples),
  /// written past the tables' CHECK as a damaged file holds them.
  static func file(stages: [(String, String)]) throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "alpha")
    try fixture.connection.execute(
      "INSERT INTO flag_rollout_plans (session_id, key, unit, salt) VALUES (1, 'f', 'fire', 's')")
    try fixture.connection.execute("PRAGMA ignore_check_constraints = 1")
    for (position, (share, samples)) in stages.enumerated() {
      try fixture.connection.execute(
        """
        INSERT INTO flag_rollout_stages (session_id, key, position, basis_points, min_samples)
        VALUES (1, 'f', \(position + 1), \(share), \(samples))
        """)
    }
    return fixture
  }

  @Test(
    "each damaged stage is named by the value at fault",
    arguments: [
      ([("0", "50")], "a stage of flag 'f' has the rollout share 0 "),
      ([("20000", "50")], "a stage of flag 'f' has the rollout share 20000"),
      ([("'half'", "50")], "a stage of flag 'f' has the rollout share 'half'"),
      ([("100", "0")], "a stage of flag 'f' has min_samples 0"),
      ([("100", "'many'")], "a stage of flag 'f' has min_samples 'many'"),
      (
        [("500", "50"), ("100", "50")],
        "a stage of flag 'f' does not rise above the stage before (500 then 100)"
      ),
    ])
  func damagedStageIsNamed(stages: [(String, String)], expected: String) throws {
    let fixture = try Self.file(stages: stages)
    let error = #expect(throws: StoreError.self) {
      try RolloutRecords.plans(of: nil, connection: fixture.connection)
    }
    let text = error.map(String.init(describing:)) ?? ""
    #expect(text.contains(expected), "\(stages): \(text)")
    if stages.allSatisfy({ $0.1 == "50" }) {
      #expect(!text.contains("min_samples"), "a share fault blamed on min_samples: \(text)")
    }
  }
}
