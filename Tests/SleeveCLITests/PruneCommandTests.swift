import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve prune` and what a pruned session means for `sessions`, `export` and `lint`.
@Suite("Prune command")
struct PruneCommandTests {
  /// A database of `count` demo sessions (`fires` replayed taps each, recorded by the real
  /// recorder).
  static func demoDatabase(sessions count: Int, fires: Int = 50) async throws -> (
    TemporaryDirectory, String
  ) {
    let directory = TemporaryDirectory()
    let path = directory.path("demo.sqlite")
    // Each demo in a process of its own: its measured handlers would hold this process's
    // main actor for a second or more, and the time-bounded recorder tests need it.
    for _ in 0..<count {
      let demo = try await ChildProcess.runOffThePool(
        ChildProcess.sleeveBinary, ["demo", "--db", path, "--fires", String(fires)])
      #expect(demo.status == 0, "\(demo.output)")
    }
    return (directory, path)
  }

  /// The bytes of the database file and of its `-wal` (empty when there is none).
  static func fileBytes(_ path: String) -> [Data] {
    [path, path + "-wal"].map { (try? Data(contentsOf: URL(fileURLWithPath: $0))) ?? Data() }
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test("--dry-run says what would go and leaves the file's bytes exactly as they were")
  func dryRunChangesNothing() async throws {
    let (directory, path) = try await Self.demoDatabase(sessions: 2)
    _ = directory
    let before = Self.fileBytes(path)
    let result = await CLIRunner.run(["prune", "--db", path, "--keep-last", "1", "--dry-run"])
    #expect(result.exit == 0, "\(result.error)")
    #expect(result.out.hasPrefix("Would prune 1 session: "))
    #expect(result.out.contains("Nothing was changed (--dry-run)."))
    #expect(result.out.contains("Selected but not pruned: 1 kept by the policy."))
    #expect(Self.fileBytes(path) == before)
    let json = try Self.json(
      await CLIRunner.run([
        "prune", "--db", path, "--keep-last", "0", "--dry-run", "--format", "json",
      ]).out)
    #expect(json["dryRun"] as? Bool == true)
    #expect((json["sessions"] as? [Any])?.count == 2)
    #expect((json["estimatedBytes"] as? Int ?? 0) > 0)
    #expect(Self.fileBytes(path) == before)
  }

  @Test("prune deletes old sessions' raw rows, shrinks the file and reports its bytes per outcome")
  func prunesAndReports() async throws {
    let (directory, path) = try await Self.demoDatabase(sessions: 3)
    _ = directory
    let result = await CLIRunner.run([
      "prune", "--db", path, "--keep-last", "1", "--format", "json",
    ])
    #expect(result.exit == 0, "\(result.error)")
    let json = try Self.json(result.out)
    let pruned = try #require(json["sessions"] as? [[String: Any]])
    #expect(pruned.map { $0["session"] as? Int } == [1, 2])
    #expect(json["kept"] as? [Int] == [3])
    #expect(json["reclaim"] as? String == "vacuumed")
    let before = try #require(json["bytesBefore"] as? Int)
    let after = try #require(json["bytesAfter"] as? Int)
    #expect(after < before)
    #expect(after == Int(DatabaseFootprint.fileBytes(path)))
    let perBefore = try #require(json["bytesPerOutcomeBefore"] as? Double)
    let perAfter = try #require(json["bytesPerOutcomeAfter"] as? Double)
    #expect(perAfter < perBefore)
    let connection = try SleeveDatabase.openForReading(path: path)
    #expect(try connection.scalarInt("SELECT count(*) FROM outcomes WHERE id >> 32 IN (1, 2)") == 0)
    #expect(try connection.scalarInt("SELECT count(*) FROM outcomes WHERE id >> 32 = 3")! > 0)
    #expect(try connection.scalarText("PRAGMA integrity_check") == "ok")
    // The table says the same in words.
    let again = await CLIRunner.run(["prune", "--db", path, "--keep-last", "0"])
    #expect(again.out.hasPrefix("Pruned 1 session: deleted "))
    #expect(again.out.contains("Selected but not pruned: 2 already pruned."))
  }

  @Test("sessions lists a pruned session as raw pruned, with the counts its summary recorded")
  func sessionsAfterPrune() async throws {
    let (directory, path) = try await Self.demoDatabase(sessions: 2)
    _ = directory
    let listed = try Self.json(
      await CLIRunner.run(["sessions", "--db", path, "--format", "json"]).out)
    let before = try #require(listed["sessions"] as? [[String: Any]])
    #expect(await CLIRunner.run(["prune", "--db", path, "--keep-last", "1"]).exit == 0)
    let result = await CLIRunner.run(["sessions", "--db", path, "--format", "json"])
    #expect(result.exit == 0)
    let after = try #require(try Self.json(result.out)["sessions"] as? [[String: Any]])
    #expect(after[0]["status"] as? String == "ended, raw pruned")
    #expect(after[0]["rawPruned"] as? Bool == true)
    #expect(after[1]["status"] as? String == "ended")
    #expect(after[1]["rawPruned"] as? Bool == false)
    for key in ["fires", "outcomes"] {
      #expect(after[0][key] as? Int == before[0][key] as? Int)
      #expect((after[0][key] as? Int ?? 0) > 0)
    }
    let table = await CLIRunner.run(["sessions", "--db", path, "--format", "csv"])
    #expect(table.out.contains(",\"ended, raw pruned\",\(before[0]["fires"] as? Int ?? -1),"))
  }

  @Test(
    "export of a selection holding a pruned session exits 69 naming it, in every raw-row format",
    arguments: ExportCommand.Format.allCases.filter { $0 != .otlpMetricsJSON })
  func exportRefusesPruned(format: ExportCommand.Format) async throws {
    let (directory, path) = try await Self.demoDatabase(sessions: 2)
    #expect(await CLIRunner.run(["prune", "--db", path, "--keep-last", "1"]).exit == 0)
    let out = directory.path("export.out")
    let refused = await CLIRunner.run([
      "export", "--db", path, "--session", "all", "--format", format.rawValue, "--out", out,
    ])
    #expect(refused.exit == 69)
    #expect(refused.out.isEmpty)
    #expect(
      refused.error
        == "Error: sleeve export --format \(format.rawValue) needs raw rows, and session 1 was "
        + "pruned (only summaries remain); select other sessions (--session, --since, --last)\n")
    #expect(!FileManager.default.fileExists(atPath: out))
    // The session that kept its raw rows still exports.
    let kept = await CLIRunner.run([
      "export", "--db", path, "--session", "2", "--format", format.rawValue,
    ])
    #expect(kept.exit == 0, "\(kept.error)")
    #expect(!kept.out.isEmpty)
  }

  @Test("a pruned session exports the same OTLP metrics as before, from its summaries")
  func metricsExportSurvivesPrune() async throws {
    let (directory, path) = try await Self.demoDatabase(sessions: 2)
    _ = directory
    let export = ["export", "--db", path, "--session", "all", "--format", "otlp-metrics-json"]
    let before = await CLIRunner.run(export)
    #expect(before.exit == 0, "\(before.error)")
    #expect(await CLIRunner.run(["prune", "--db", path, "--keep-last", "0"]).exit == 0)
    let after = await CLIRunner.run(export)
    #expect(after.exit == 0, "\(after.error)")
    #expect(after.out == before.out)
    #expect(after.out.contains("exponentialHistogram"))
  }

  @Test("lint says no check ran for a pruned session instead of reporting it clean")
  func lintSkipsPruned() async throws {
    let (directory, path) = try await Self.demoDatabase(sessions: 1)
    _ = directory
    let before = await CLIRunner.run(["lint", "--db", path, "--format", "json"])
    #expect((try Self.json(before.out)["findings"] as? [Any])?.isEmpty == false)
    #expect(await CLIRunner.run(["prune", "--db", path, "--keep-last", "0"]).exit == 0)
    let text = await CLIRunner.run(["lint", "--db", path])
    #expect(text.exit == 0)
    #expect(
      text.out.contains(
        "The session's raw rows were pruned (sleeve prune), so no check ran for it; only its "
          + "summaries remain."))
    let json = try Self.json(await CLIRunner.run(["lint", "--db", path, "--format", "json"]).out)
    #expect(json["sessionsRawPruned"] as? Int == 1)
    #expect((json["findings"] as? [Any])?.isEmpty == true)
  }

  @Test("the selection options narrow what prune takes")
  func selectionNarrows() async throws {
    let fixture = try FixtureDatabase()
    for (id, name) in [(1, "A1"), (2, "A2"), (3, "B1")] as [(Int64, String)] {
      try fixture.session(id, name: name, startedSeconds: 1_700_000_000 + id)
      try fixture.handler(session: id, number: 1, name: "h", control: "c")
      try fixture.outcomes(session: id, handler: 1, durations: [1, 2, 3])
    }
    let result = await CLIRunner.run([
      "prune", "--db", fixture.path, "--keep-last", "0", "--name", "A*", "--format", "json",
    ])
    #expect(result.exit == 0, "\(result.error)")
    let json = try Self.json(result.out)
    #expect((json["sessions"] as? [[String: Any]])?.map { $0["session"] as? Int } == [1, 2])
    #expect(
      (json["sessions"] as? [[String: Any]])?.allSatisfy { $0["summarizedFirst"] as? Bool == true }
        == true)
    let states = try SummaryTables.states(connection: fixture.connection)
    #expect(states[1]?.isPruned == true && states[2]?.isPruned == true)
    #expect(states[3] == nil)
    #expect(try fixture.connection.scalarInt("SELECT count(*) FROM outcomes") == 3)
    let older = await CLIRunner.run([
      "prune", "--db", fixture.path, "--raw-older-than", "1d", "--session", "3",
    ])
    #expect(older.exit == 0)
    #expect(try fixture.connection.scalarInt("SELECT count(*) FROM outcomes") == 0)
  }

  @Test(
    "a bad duration, count or combination is a usage error of one line, exit 64",
    arguments: [
      (
        ["--raw-older-than", "99999999999d"],
        "The value '99999999999d' is invalid for '--raw-older-than <age>': the time must be "
          + "between 1677-09-22 and 2262-04-11 (an age cannot reach back further)"
      ),
      (
        ["--raw-older-than", "-5d"],
        "The value '-5d' is invalid for '--raw-older-than <age>': expected a date (2026-11-30), "
          + "a time (2026-11-30T10:00:00Z) or an age (30m, 2h, 7d)"
      ),
      (
        ["--keep-last", "-1"],
        "The value '-1' is invalid for '--keep-last <n>': expected a whole number from 0 to "
          + "1000000"
      ),
      (
        ["--keep-last", "99999999999999999999"],
        "The value '99999999999999999999' is invalid for '--keep-last <n>': expected a whole "
          + "number from 0 to 1000000"
      ),
      ([], "Give --raw-older-than <age> (e.g. 30d) or --keep-last <n>: which sessions to prune"),
      (
        ["--keep-last", "1", "--raw-older-than", "1d"],
        "--raw-older-than and --keep-last choose sessions two ways; give one of them"
      ),
    ])
  func hostileArguments(arguments: [String], message: String) async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let before = Self.fileBytes(fixture.path)
    await CLIRunner.expectUsageError(
      ["prune", "--db", fixture.path] + arguments, message, command: "prune")
    #expect(Self.fileBytes(fixture.path) == before)
  }
}
