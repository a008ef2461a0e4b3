import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

#if canImport(Glibc)
  import Glibc
#endif

/// Defects found by attacking the finished work from outside, each pinned by the rule it broke.
@Suite("Attack regressions")
struct AttackRegressionTests {
  @Test("a reader that goes away (a closed pipe) ends a command with 74, never a signal")
  func closedPipeIsExit74() async throws {
    let fixture = try OutputFileTests.bigFixture()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ChildProcess.sleeveBinary)
    process.arguments = ["export", "--db", fixture.path, "--format", "csv"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    try pipe.fileHandleForReading.close()  // the reader is gone before the first write
    await process.exited()
    #expect(process.terminationReason == .exit, "ended by signal \(process.terminationStatus)")
    #expect(process.terminationStatus == 74)
  }

  @Test("migrate --status shows a recorded migration id escaped, and a newer file says why")
  func migrateStatusOfANewerFile() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute(
      "INSERT INTO schema_migrations VALUES ('9999' || char(27) || '[2J' || char(10) || 'x', 1)")
    let result = await CLIRunner.run(["migrate", "--status", "--db", fixture.path])
    #expect(result.exit == 65)
    #expect(result.out.contains(#"unknown  9999\e[2J\nx (from a newer Sleeve)"#), "\(result.out)")
    #expect(!result.out.contains("\u{1B}"))
    #expect(result.error.hasPrefix("Error: "), "\(result.error)")
    #expect(result.error.split(separator: "\n").count == 1)
  }

  @Test("tables beside an empty schema_migrations are damage (65) for readers and writers")
  func emptyLedgerWithTables() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute("DELETE FROM schema_migrations")
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let before = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
    for command in [
      ["sessions"], ["check", "--max-error-rate", "5%"], ["migrate"], ["demo", "--fires", "5"],
      ["enable", "zz", "--create"],
    ] {
      let result = await CLIRunner.run(command + ["--db", fixture.path])
      #expect(result.exit == 65, "\(command): \(result.error)")
      #expect(result.error.contains("schema_migrations is empty"), "\(result.error)")
    }
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.path)) == before)
  }

  @Test("a database made in a zero-byte file is 0600, whatever that file's mode was")
  func zeroByteFileBecomesPrivate() async throws {
    let directory = TemporaryDirectory()
    for command in ["demo", "enable"] {
      let path = directory.path("\(command).sqlite")
      #expect(FileManager.default.createFile(atPath: path, contents: nil))
      chmod(path, 0o666)
      let arguments =
        command == "demo" ? ["demo", "--fires", "5"] : ["enable", "f", "--create"]
      let result = await CLIRunner.run(arguments + ["--db", path])
      #expect(result.exit == 0, "\(result.error)")
      let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
      #expect(mode == 0o600, "\(command)")
    }
  }

  @Test(
    "a flag threshold a file holds as text, out of range or infinite is damage, never 0",
    arguments: [
      "max_error_rate = 'abc'", "max_error_rate = 9e999", "max_error_rate = -1",
      "min_samples = 'x'", "min_samples = -9223372036854775808", "max_p99_ns = 'slow'",
    ])
  func damagedThresholds(update: String) async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute("UPDATE flags SET \(update)")
    for command in [["check"], ["flags"], ["report", "--format", "json"]] {
      let result = await CLIRunner.run(command + ["--db", fixture.path, "--session", "all"])
      #expect(result.exit == 65, "\(update), \(command): exit \(result.exit) \(result.error)")
      #expect(result.error.contains("flag 'new-pay' has"), "\(result.error)")
    }
  }

  @Test("a duration a file holds as text is damage naming its row, never a 0 ns sample")
  func textDurations() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute(
      "UPDATE outcomes SET duration_ns = 'zz' WHERE id = (SELECT min(id) FROM outcomes)")
    for grouping in ["handler", "event"] {
      let result = await CLIRunner.run([
        "latency", "--db", fixture.path, "--session", "all", "--by", grouping,
      ])
      #expect(result.exit == 65, "\(grouping): \(result.error)")
      #expect(result.error.contains("has a duration_ns that is not an integer"))
    }
  }

  @Test("the completion helper prints nothing and exits 0 on any usage error")
  func completionHelperIsQuiet() async {
    for arguments in [
      ["__complete"], ["__complete", "sessions", "extra"], ["__complete", "sessions", "--bogus"],
      ["__complete", "flags", "--db", String(repeating: "x", count: 5_000)],
    ] {
      let result = await CLIRunner.run(arguments)
      #expect(result.exit == 0, "\(arguments.prefix(3))")
      #expect(result.out.isEmpty && result.error.isEmpty, "\(result.error)")
    }
  }

  @Test("merge leaves no new output behind when its first input fails (busy past the timeout)")
  func failedMergeLeavesNothing() async throws {
    let source = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let input = directory.path("locked.sqlite")
    try source.connection.execute("VACUUM INTO '\(input)'")  // a rollback-journal copy
    let holder = try Connection(path: input, mode: .readWrite, busyTimeout: .milliseconds(10))
    try holder.execute("PRAGMA journal_mode = DELETE")
    try holder.execute("BEGIN EXCLUSIVE")
    defer { try? holder.execute("ROLLBACK") }
    let out = directory.path("all.sqlite")
    let result = await CLIRunner.run(["merge", out, input])
    #expect(result.exit == 75, "\(result.error)")
    #expect(!FileManager.default.fileExists(atPath: out))
    #expect(!FileManager.default.fileExists(atPath: out + "-wal"))
  }

  @Test("sleeve help help prints the overview")
  func helpHelp() async {
    let result = await CLIRunner.run(["help", "help"])
    #expect(result.exit == 0)
    #expect(result.out.hasPrefix("OVERVIEW:"))
  }

  @Test("number-like texts a spreadsheet does not read as numbers are neutralized in CSV")
  func csvSpecials() {
    for value in ["-inf", "+nan", "-NaN", "+infinity", "-0x1p3", "+0x10", "- 5"] {
      #expect(CSVText.readsAsFormula(value), "\(value)")
    }
    for value in ["-5", "+6e-7", "-4.5", "-0"] {
      #expect(!CSVText.readsAsFormula(value), "\(value)")
    }
  }
}
