import SleeveStore
import SleeveTestSupport
import Testing

/// `migrate --status` checks the file as every reader does: a migrated file missing what its
/// migrations made is damaged (65), never listed as migrated with exit 0.
@Suite("migrate --status of a damaged file")
struct MigrateStatusDamageTests {
  @Test(
    "a dropped column, a renamed table or a view in place of a table is damage (65), not a list",
    arguments: [
      (["ALTER TABLE session_context DROP COLUMN runner"], "column 'session_context.runner'"),
      (["ALTER TABLE quarantine RENAME TO quarantine_old"], "table 'quarantine' is missing"),
      (
        [
          "DROP TABLE lint_suppressions",
          "CREATE VIEW lint_suppressions AS SELECT 1 AS id, 'c' AS check_id",
        ], "table 'lint_suppressions' is missing"
      ),
    ])
  func damagedFileIsRefused(damage: [String], missing: String) async throws {
    let fixture = try FixtureDatabase.standard()
    for sql in damage { try fixture.connection.execute(sql) }
    let result = await CLIRunner.run(["migrate", "--status", "--db", fixture.path])
    #expect(result.exit == 65, "\(damage): exit \(result.exit) \(result.out)")
    #expect(result.out.isEmpty, "listed as migrated: \(result.out)")
    #expect(result.error.contains("'\(fixture.path)' is damaged (\(missing)"), "\(result.error)")
    #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
  }

  @Test("an intact file is listed, every migration applied, exit 0")
  func intactFileIsListed() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(["migrate", "--status", "--db", fixture.path])
    #expect(result.exit == 0, "\(result.error)")
    #expect(result.out == SchemaMigrations.all.map { "applied  \($0.id)\n" }.joined())
  }
}
