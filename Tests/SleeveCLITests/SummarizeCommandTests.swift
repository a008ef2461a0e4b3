import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve summarize` over files recorded before summaries existed.
@Suite("Summarize command")
struct SummarizeCommandTests {
  /// A file at schema 0004 (before summaries): alpha and beta ended, one session running.
  static func olderFile() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase(migrations: 4)
    try fixture.addAlpha(as: 1)
    try fixture.addBeta(as: 2)
    try fixture.session(3, name: "live", startedSeconds: 1_700_000_200, status: "running")
    return fixture
  }

  @Test("summarize upgrades an older file and writes the raw rows' summaries, once")
  func summarizesOnce() async throws {
    let fixture = try Self.olderFile()
    let first = await CLIRunner.run(["summarize", "--db", fixture.path])
    #expect(first.exit == 0, "\(first.error)")
    #expect(
      first.out.hasPrefix(
        "Summarized 2 sessions (4 summaries); 1 not ended (summarized when read).\n"))
    let connection = try SleeveDatabase.openForReading(path: fixture.path)
    #expect(
      try connection.scalarInt(
        "SELECT count(*) FROM schema_migrations WHERE id = '0005_summaries'") == 1)
    for session: Int64 in [1, 2] {
      #expect(
        try SummaryTables.read(session: session, connection: connection)
          == OutcomeSummaries.build(session: session, connection: connection))
    }
    let before = try StoredSummaryRows.of(connection)
    let again = await CLIRunner.run(["summarize", "--db", fixture.path, "--format", "json"])
    #expect(again.exit == 0)
    let json = try #require(
      try JSONSerialization.jsonObject(with: Data(again.out.utf8)) as? [String: Any])
    #expect((json["summarized"] as? [Any])?.isEmpty == true)
    #expect(json["alreadySummarized"] as? [Int] == [1, 2])
    #expect(json["notEnded"] as? [Int] == [3])
    #expect(try StoredSummaryRows.of(connection) == before)
  }

  @Test("--rebuild rewrites summaries but keeps a pruned session's, and --session narrows it")
  func rebuild() async throws {
    let fixture = try Self.olderFile()
    #expect(await CLIRunner.run(["summarize", "--db", fixture.path]).exit == 0)
    #expect(
      await CLIRunner.run(["prune", "--db", fixture.path, "--keep-last", "0", "--session", "1"])
        .exit == 0)
    let result = await CLIRunner.run(["summarize", "--db", fixture.path, "--rebuild"])
    #expect(
      result.out.hasPrefix(
        "Summarized 1 session (1 summary); 1 not ended (summarized when read); 1 raw pruned "
          + "(kept as summarized).\n"))
    let only = await CLIRunner.run([
      "summarize", "--db", fixture.path, "--rebuild", "--session", "2", "--format", "csv",
    ])
    #expect(only.out == "session,name,result,summaries\n2,beta,summarized,1\n")
  }

  @Test("a selection that matches nothing exits 66 and leaves an older file as it was")
  func noMatch() async throws {
    let fixture = try Self.olderFile()
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let before = PruneCommandTests.fileBytes(fixture.path)
    let result = await CLIRunner.run(["summarize", "--db", fixture.path, "--name", "nothing*"])
    #expect(result.exit == 66)
    #expect(PruneCommandTests.fileBytes(fixture.path) == before)
  }
}

/// The stored summary rows of a file (blobs and summary times included).
enum StoredSummaryRows {
  static func of(_ connection: Connection) throws -> [[SQLValue]] {
    var rows: [[SQLValue]] = []
    for sql in [
      "SELECT * FROM outcome_summaries ORDER BY registration_id, variant",
      "SELECT * FROM session_summaries ORDER BY session_id",
    ] {
      let statement = try connection.prepare(sql)
      while try statement.step() {
        rows.append((0..<statement.columnCount).map { statement.value(at: $0) })
      }
    }
    return rows
  }
}
