import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

/// Rows whose ids lie outside every session's id range (an older writer or a foreign tool):
/// no answer counts them, so the gate refuses the file and `sessions` counts them.
@Suite("Rows that belong to no session are counted, and the gate refuses them")
struct UnownedRowsCLITests {
  /// The standard fixture with session 1's fires and their outcomes moved to session 9's
  /// range (no session 9 exists), as a foreign tool would write them, and one registration
  /// of session 2 naming session 1 in its own column.
  static func foreignFixture() throws -> (FixtureDatabase, fires: Int64, outcomes: Int64) {
    let fixture = try FixtureDatabase.standard()
    let bits = RowID.numberBits
    let fires = try #require(
      try fixture.connection.scalarInt("SELECT count(*) FROM fires WHERE id >> \(bits) = 1"))
    let outcomes = try #require(
      try fixture.connection.scalarInt("SELECT count(*) FROM outcomes WHERE id >> \(bits) = 1"))
    try fixture.connection.execute("PRAGMA foreign_keys = OFF")
    let moved = "((id & \(RowID.numberMask)) | (9 << \(bits)))"
    try fixture.connection.execute(
      """
      UPDATE outcomes SET id = \(moved),
        fire_id = ((fire_id & \(RowID.numberMask)) | (9 << \(bits))) WHERE id >> \(bits) = 1;
      UPDATE fires SET id = \(moved) WHERE id >> \(bits) = 1;
      """)
    return (fixture, fires, outcomes)
  }

  @Test("check and report exit 65 naming the tables and counts of rows that belong to no session")
  func gateRefusesUnownedRows() async throws {
    let (fixture, fires, outcomes) = try Self.foreignFixture()
    for command in [
      ["check", "--max-error-rate", "50%"], ["report"], ["report", "--format", "json"],
    ] {
      let result = await CLIRunner.run(command + ["--db", fixture.path])
      #expect(result.exit == 65, "\(command): \(result.error)")
      #expect(
        result.error.contains(
          "\(fires) rows of fires, \(outcomes) of outcomes belong to no session"),
        "\(command): \(result.error)")
      #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    }
  }

  @Test(
    "sessions answers, and says on standard error and in JSON how many rows belong to no session")
  func sessionsCountsUnownedRows() async throws {
    let (fixture, fires, outcomes) = try Self.foreignFixture()
    let table = await CLIRunner.run(["sessions", "--db", fixture.path])
    #expect(table.exit == 0, "\(table.error)")
    #expect(
      table.error.contains(
        "Warning: \(fires) rows of fires, \(outcomes) of outcomes belong to no session"),
      "\(table.error)")
    let json = await CLIRunner.run(["sessions", "--format", "json", "--db", fixture.path])
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    let unowned = try #require(object["unownedRows"] as? [String: Int], "\(json.out)")
    #expect(unowned == ["fires": Int(fires), "outcomes": Int(outcomes)])
  }

  @Test("a clean file has no warning, an empty unownedRows, and the gate decides")
  func cleanFileIsUnaffected() async throws {
    let fixture = try FixtureDatabase.standard()
    let json = await CLIRunner.run(["sessions", "--format", "json", "--db", fixture.path])
    #expect(!json.error.contains("belong to no session"), "\(json.error)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
    #expect((object["unownedRows"] as? [String: Int]) == [:])
    let check = await CLIRunner.run(["check", "--max-error-rate", "50%", "--db", fixture.path])
    #expect([0, 1, 2].contains(check.exit), "\(check.error)")
  }
}
