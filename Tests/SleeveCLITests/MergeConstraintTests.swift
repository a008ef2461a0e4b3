import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

/// An input holding a row its own schema would refuse (written past a CHECK, or into a table
/// rebuilt without its NOT NULL or key) is damaged: `merge` says so (65) naming the input, the
/// table and the row, never SQLite's raw constraint message as an I/O error (74).
@Suite("Merge of rows that break the schema")
struct MergeConstraintTests {
  /// SQL damaging the standard fixture, the table and the row (a query for its id) the
  /// refusal must name, and the constraint it must quote.
  struct Broken: Sendable, CustomTestStringConvertible {
    let name: String
    let sql: [String]
    let table: String
    let row: String
    let constraint: String
    var testDescription: String { name }
  }

  static let cases = [
    Broken(
      name: "a CHECK of a session's row",
      sql: [
        "INSERT INTO flag_check_severities VALUES (1, 'new-pay', 'p99', 'bogus')"
      ], table: "flag_check_severities", row: "SELECT 1", constraint: "CHECK constraint failed"),
    Broken(
      name: "a CHECK of an id-ranged row",
      sql: [
        "UPDATE outcomes SET status = 9 WHERE id = (SELECT min(id) FROM outcomes) + 2"
      ], table: "outcomes", row: "SELECT id FROM outcomes WHERE status = 9",
      constraint: "CHECK constraint failed"),
    Broken(
      name: "a NOT NULL",
      sql: [
        "ALTER TABLE flags RENAME TO flags_old",
        """
        CREATE TABLE flags (session_id INTEGER, key TEXT, owner TEXT, max_error_rate REAL,
          max_p99_ns INTEGER, min_samples INTEGER, PRIMARY KEY (session_id, key))
        """,
        "INSERT INTO flags SELECT * FROM flags_old", "DROP TABLE flags_old",
        "UPDATE flags SET owner = NULL",
      ], table: "flags", row: "SELECT 1", constraint: "NOT NULL constraint failed: flags.owner"),
    Broken(
      name: "a UNIQUE key",
      sql: [
        "DROP TABLE flag_check_severities",
        "CREATE TABLE flag_check_severities (session_id, key, check_name, severity)",
        "INSERT INTO flag_check_severities VALUES (1, 'new-pay', 'p99', 'advisory')",
        "INSERT INTO flag_check_severities VALUES (1, 'new-pay', 'p99', 'advisory')",
      ], table: "flag_check_severities", row: "SELECT 2", constraint: "UNIQUE constraint failed"),
    Broken(
      name: "a NOT NULL of a united table",
      sql: [
        "DROP TABLE quarantine",
        """
        CREATE TABLE quarantine (id INTEGER PRIMARY KEY, control TEXT, handler TEXT,
          reason TEXT, actor TEXT, added_unix_ns INTEGER)
        """,
        "INSERT INTO quarantine VALUES (4, 'c', 'h', NULL, NULL, 1)",
      ], table: "quarantine", row: "SELECT 4",
      constraint: "NOT NULL constraint failed: quarantine.reason"),
  ]

  @Test(
    "a row breaking a CHECK, NOT NULL or UNIQUE is damage (65) naming the input and the row",
    arguments: cases)
  func brokenRowIsNamed(broken: Broken) async throws {
    let input = try FixtureDatabase.standard()
    try input.connection.execute("PRAGMA ignore_check_constraints = 1")
    for sql in broken.sql { try input.connection.execute(sql) }
    let row = try #require(try input.connection.scalarInt(broken.row))
    let directory = TemporaryDirectory()
    let result = await CLIRunner.run(["merge", directory.path("all.sqlite"), input.path])
    #expect(result.exit == 65, "\(broken.name): exit \(result.exit) \(result.error)")
    #expect(result.error.contains("'\(input.path)' is damaged ("), "\(result.error)")
    #expect(
      result.error.contains("\(broken.table) row \(row) breaks the schema: \(broken.constraint)"),
      "\(result.error)")
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
  }
}
