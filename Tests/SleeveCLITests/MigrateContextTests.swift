import SleeveStore
import SleeveTestSupport
import Testing

/// `sleeve migrate` on a file written before migration 0003.
@Suite("Migrate to 0003")
struct MigrateContextTests {
  @Test("a 0002 file with sessions migrates in place to 0003, keeps every row, and has no context")
  func migratesA0002File() async throws {
    let old = try FixtureDatabase(migrations: 2)
    try old.addAlpha(as: 1)
    try old.addBeta(as: 2)
    let tables = [
      "sessions", "controls", "registrations", "fires", "outcomes", "flags", "flag_events",
    ]
    /// Every row of every table 0002 has, each column as text, in rowid order.
    func snapshot() throws -> [String] {
      try tables.flatMap { table -> [String] in
        let statement = try old.connection.prepare("SELECT * FROM \(table) ORDER BY rowid")
        var rows: [String] = []
        while try statement.step() {
          rows.append(
            table + ":"
              + (0..<statement.columnCount).map { statement.text(at: $0) ?? "NULL" }.joined(
                separator: "|"))
        }
        return rows
      }
    }
    let before = try snapshot()
    #expect(before.count > 60)
    let status = await CLIRunner.run(["migrate", "--db", old.path, "--status"])
    #expect(status.out.contains("pending  0003_run_context"))
    let migrate = await CLIRunner.run(["migrate", "--db", old.path])
    #expect(migrate.exit == 0)
    #expect(
      migrate.out
        == "applied  0003_run_context\napplied  0004_interactions\napplied  0005_summaries\napplied  0006_summary_rollups\napplied  0007_rollouts\napplied  0008_deliveries\napplied  0009_summary_checksums\n"
    )
    #expect(try snapshot() == before)
    #expect(try old.connection.scalarInt("SELECT count(*) FROM sessions") == 2)
    #expect(
      try old.connection.scalarInt(
        "SELECT count(*) FROM sessions s LEFT JOIN session_context c ON c.session_id = s.id WHERE c.session_id IS NULL"
      )
        == 2)
    #expect(try old.connection.scalarInt("SELECT count(*) FROM quarantine") == 0)
    #expect(try Migrator.state(of: old.connection).pending.isEmpty)
  }

  @Test("'sleeve merge' takes a 0002 input into a 0003 output, leaving the input as it was")
  func mergesA0002Input() async throws {
    let old = try FixtureDatabase(migrations: 2)
    try old.addAlpha(as: 1)
    let directory = TemporaryDirectory()
    let out = directory.path("out.sqlite")
    let merge = await CLIRunner.run(["merge", out, old.path, "--format", "json"])
    #expect(merge.exit == 0, "\(merge.error)")
    let merged = try SleeveDatabase.openForReading(path: out)
    #expect(try merged.scalarInt("SELECT count(*) FROM sessions") == 1)
    #expect(try merged.scalarInt("SELECT count(*) FROM outcomes") == 26)
    #expect(
      try Migrator.state(of: old.connection).pending == [
        "0003_run_context", "0004_interactions", "0005_summaries", "0006_summary_rollups",
        "0007_rollouts", "0008_deliveries", "0009_summary_checksums",
      ])
  }
}
