import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

/// A writer refuses what a reader refuses: `merge` never copies a value every reader refuses,
/// and never repairs one (a clamped share, a dropped one) into a value that decides a gate.
@Suite("Merge refuses damage")
struct MergeRefusesDamageTests {
  /// A damaged input: the SQL that damages the standard fixture, the table and the row (a
  /// query for its rowid) the refusal must name, and the value it must quote.
  struct Damage: Sendable, CustomTestStringConvertible {
    let name: String
    let sql: [String]
    let table: String
    let row: String
    let value: String
    var testDescription: String { name }
  }

  static let damages = [
    Damage(
      name: "a rolled-back event marked as a rollout of 10001",
      sql: [
        "INSERT INTO flag_rollouts VALUES ((SELECT max(id) FROM flag_events), 10001)"
      ], table: "flag_rollouts", row: "SELECT max(id) FROM flag_events", value: "10001"),
    Damage(
      name: "a command-line rollout whose share is text",
      sql: [
        """
        INSERT INTO flag_events (session_id, key, state, at_unix_ns) VALUES
          (NULL, 'cli-flag', 'disabled', 5)
        """,
        "INSERT INTO flag_rollouts VALUES ((SELECT max(id) FROM flag_events), 'half')",
      ], table: "flag_rollouts", row: "SELECT max(id) FROM flag_events", value: "'half'"),
    Damage(
      name: "a rollout stage serving nobody",
      sql: [
        "INSERT INTO flag_rollout_plans VALUES (1, 'new-pay', 'fire', 's')",
        "INSERT INTO flag_rollout_stages VALUES (1, 'new-pay', 1, 0, 50)",
      ], table: "flag_rollout_stages", row: "SELECT max(rowid) FROM flag_rollout_stages",
      value: "rollout share 0"),
    Damage(
      name: "a rollout stage needing two billion samples",
      sql: [
        "INSERT INTO flag_rollout_plans VALUES (1, 'new-pay', 'fire', 's')",
        "INSERT INTO flag_rollout_stages VALUES (1, 'new-pay', 1, 100, 2000000000)",
      ], table: "flag_rollout_stages", row: "SELECT max(rowid) FROM flag_rollout_stages",
      value: "min_samples 2000000000"),
    Damage(
      name: "stages that do not rise",
      sql: [
        "INSERT INTO flag_rollout_plans VALUES (1, 'new-pay', 'fire', 's')",
        "INSERT INTO flag_rollout_stages VALUES (1, 'new-pay', 1, 500, 50)",
        "INSERT INTO flag_rollout_stages VALUES (1, 'new-pay', 2, 100, 50)",
      ], table: "flag_rollout_stages", row: "SELECT max(rowid) FROM flag_rollout_stages",
      value: "500 then 100"),
    Damage(
      name: "a flag threshold held as text",
      sql: ["UPDATE flags SET max_error_rate = 'abc'"], table: "flags",
      row: "SELECT rowid FROM flags", value: "max_error_rate 'abc'"),
    Damage(
      name: "an outcome's rollout share that is not a whole number",
      sql: [
        "INSERT INTO outcome_rollouts VALUES ((SELECT min(id) FROM outcomes), 2500.5, NULL)"
      ], table: "outcome_rollouts", row: "SELECT min(id) FROM outcomes", value: "2500.5"),
  ]

  @Test(
    "merge refuses (65) what every reader refuses, naming the input, the table and the row",
    arguments: damages)
  func mergeRefusesWhatReadersRefuse(damage: Damage) async throws {
    let input = try FixtureDatabase.standard()
    try input.connection.execute("PRAGMA ignore_check_constraints = 1")
    for sql in damage.sql { try input.connection.execute(sql) }
    let row = try #require(try input.connection.scalarInt(damage.row))
    let directory = TemporaryDirectory()
    let out = directory.path("all.sqlite")
    let result = await CLIRunner.run(["merge", out, input.path])
    #expect(result.exit == 65, "\(damage.name): exit \(result.exit) \(result.error)")
    #expect(result.error.contains("'\(input.path)' is damaged"), "\(result.error)")
    #expect(result.error.contains("\(damage.table) row \(row):"), "\(result.error)")
    #expect(result.error.contains(damage.value), "\(result.error)")
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    // Nothing of it reached a file a gate could read.
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test("a merge into an existing file keeps what it had and copies nothing of the damage")
  func existingOutputKeepsItsOwn() async throws {
    let directory = TemporaryDirectory()
    let out = directory.path("all.sqlite")
    let first = try FixtureDatabase.standard()
    #expect(await CLIRunner.run(["merge", out, first.path]).exit == 0)
    let damaged = try FixtureDatabase()
    try damaged.session(7, name: "gamma", uuidNumber: 7)
    try damaged.flag(
      session: 7, key: "new-pay", owner: "payments", maxErrorRate: nil, maxP99: nil,
      minSamples: 5, states: [("rolledBack", "errors")])
    try damaged.connection.execute("PRAGMA ignore_check_constraints = 1")
    try damaged.connection.execute(
      "INSERT INTO flag_rollouts VALUES ((SELECT max(id) FROM flag_events), 10001)")
    let result = await CLIRunner.run(["merge", out, damaged.path])
    #expect(result.exit == 65, "\(result.error)")
    let flags = await CLIRunner.run(["flags", "--db", out, "--session", "all"])
    #expect(flags.exit == 0, "\(flags.error)")
    #expect(!flags.out.contains("rollingOut"), "\(flags.out)")
    let merged = try Connection(path: out, mode: .readOnly)
    #expect(try merged.scalarInt("SELECT count(*) FROM flag_rollouts") == 0)
    #expect(try merged.scalarInt("SELECT count(*) FROM sessions WHERE name = 'gamma'") == 0)
  }

  @Test("a command-line rollout keeps its share through a merge, never read as disabled")
  func commandLineRolloutKeepsItsShare() async throws {
    let input = try FixtureDatabase.standard()
    let rollout = await CLIRunner.run([
      "rollout", "new-pay", "--percent", "12.5", "--db", input.path,
    ])
    #expect(rollout.exit == 0, "\(rollout.error)")
    let directory = TemporaryDirectory()
    let out = directory.path("all.sqlite")
    let merge = await CLIRunner.run(["merge", out, input.path])
    #expect(merge.exit == 0, "\(merge.error)")
    let changes = """
      SELECT e.key, e.state, r.basis_points FROM flag_events e
      LEFT JOIN flag_rollouts r ON r.flag_event_id = e.id WHERE e.session_id IS NULL
      """
    let before = try Inspector(path: input.path).rows(changes)
    #expect(before.count == 1)
    #expect(try Inspector(path: out).rows(changes) == before)
    // Merged again, it is the same change: not copied twice.
    #expect(await CLIRunner.run(["merge", out, input.path]).exit == 0)
    #expect(try Inspector(path: out).rows(changes) == before)
  }
}
