import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

@Suite("Errors and exit codes")
struct ErrorGoldenTests {
  static let usageCases: [(arguments: [String], message: String, command: String?)] = [
    (
      ["latency", "--percentiles", "101"],
      "The value '101' is invalid for '--percentiles <list>': each percentile must be between 0 and 100",
      "latency"
    ),
    (
      ["latency", "--percentiles", "50,,99"],
      "The value '50,,99' is invalid for '--percentiles <list>': expected numbers separated by commas, like 50,95,99.9",
      "latency"
    ),
    (
      ["check", "--max-p99", "fast"],
      "The value 'fast' is invalid for '--max-p99 <duration>': expected a duration with a unit, like 50ms, 1.5s, 200us or 300ns",
      "check"
    ),
    (
      ["check", "--max-error-rate", "150%"],
      "The value '150%' is invalid for '--max-error-rate <rate>': a rate must be between 0 and 1 (0% and 100%)",
      "check"
    ),
    (
      ["check", "--min-samples", "zero"],
      "The value 'zero' is invalid for '--min-samples <n>': expected a whole number of at least 1",
      "check"
    ),
    (
      ["errors", "--since", "yesterdayish"],
      "The value 'yesterdayish' is invalid for '--since <time>': expected a date (2026-11-30), a time (2026-11-30T10:00:00Z) or an age (30m, 2h, 7d)",
      "errors"
    ),
    (
      ["errors", "--by", "colour"],
      "The value 'colour' is invalid for '--by <group>': expected one of control, handler, event, flag, variant, session",
      "errors"
    ),
    (
      ["errors", "--format", "yaml"],
      "The value 'yaml' is invalid for '--format <format>': expected one of table, json, csv, markdown",
      "errors"
    ),
    (
      ["errors", "--session", "yesterday"],
      "The value 'yesterday' is invalid for '--session <session>': expected last, all, a session id (a positive number) or a UUID",
      "errors"
    ),
    (
      ["diff", "--baseline", "branch=main", "--format", "yaml"],
      "The value 'yaml' is invalid for '--format <format>': expected one of table, json, csv, markdown, junit, github",
      "diff"
    ),
    (
      ["diff", "--baseline", "branch=main", "--min-error-change", "200%"],
      "The value '200%' is invalid for '--min-error-change <rate>': a rate must be between 0 and 1 (0% and 100%)",
      "diff"
    ),
    (
      ["diff", "--baseline", "branch=main", "--min-latency-change", "fast"],
      "The value 'fast' is invalid for '--min-latency-change <duration>': expected a duration with a unit, like 50ms, 1.5s, 200us or 300ns",
      "diff"
    ),
    (
      ["check", "--baseline", "branch=main", "--failure-limit", "0"],
      "The value '0' is invalid for '--failure-limit <k>': expected a whole number from 1 to 1000000",
      "check"
    ),
    (
      ["check", "--baseline", "branch=main", "--quarantine", "all"],
      "The value 'all' is invalid for '--quarantine <which>': expected one of list, flaky, none",
      "check"
    ),
    (
      ["check", "--quarantine", "flaky"],
      "--quarantine applies to --baseline; give --baseline too", "check"
    ),
    (
      ["errors", "--last", "0"],
      "The value '0' is invalid for '--last <n>': expected a whole number from 1 to 1000000",
      "errors"
    ),
    (
      ["errors", "--commit", ""],
      "The value '' is invalid for '--commit <sha>': expected a commit id (4 or more characters)",
      "errors"
    ),
    (
      ["report", "--failure-limit", "2"],
      "--failure-limit applies to --baseline; give --baseline too", "report"
    ),
    (
      ["errors", "--branch", " "],
      "The value ' ' is invalid for '--branch <name>': expected a branch; the value is empty",
      "errors"
    ),
    (
      ["quarantine", "add", "submit", "--control", "", "--reason", "x"],
      "The control name is empty; leave --control out to cover every control", "quarantine"
    ),
    (["errors", "--bogus"], "Unknown option '--bogus'", "errors"),
    (["errors", "--db"], "Missing value for '--db <path>'", "errors"),
    (["errors", "stray"], "Unexpected argument 'stray'", "errors"),
    (["migrate", "--status=yes"], "The flag '--status' does not take a value", "migrate"),
    (["frobnicate"], "Unknown subcommand 'frobnicate'", nil),
    (["--bogus"], "Unknown option '--bogus'", nil),
    (
      ["demo", "--fires", "-3"],
      "The value '-3' is invalid for '--fires <n>': expected a whole number from 1 to 100000000",
      "demo"
    ),
  ]

  @Test(
    "usage errors: one Error line, the usage line, a pointer to help, exit 64",
    arguments: usageCases)
  func usageErrors(arguments: [String], message: String, command: String?) async {
    await CLIRunner.expectUsageError(arguments, message, command: command)
  }

  @Test("a missing database exits 66 with one line naming it")
  func missingDatabase() async {
    let result = await CLIRunner.run(["errors", "--db", "/nonexistent/sleeve.sqlite"])
    #expect(result.exit == 66)
    #expect(
      result.error
        == "Error: database '/nonexistent/sleeve.sqlite' not found; record a session first "
        + "(e.g. 'sleeve demo') or pass --db\n")
  }

  @Test("SLEEVE_DB names the database when --db is absent; --db wins over it")
  func databaseFromEnvironment() async {
    let fromEnvironment = await CLIRunner.run(
      ["sessions"], environment: ["SLEEVE_DB": "/nonexistent/env.sqlite"])
    #expect(fromEnvironment.error.contains("'/nonexistent/env.sqlite'"))
    let fromOption = await CLIRunner.run(
      ["sessions", "--db", "/nonexistent/option.sqlite"],
      environment: ["SLEEVE_DB": "/nonexistent/env.sqlite"])
    #expect(fromOption.error.contains("'/nonexistent/option.sqlite'"))
  }

  @Test("a session that does not exist exits 66")
  func missingSession() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(["errors", "--db", fixture.path, "--session", "99"])
    #expect(result.exit == 66)
    #expect(
      result.error
        == "Error: no session matches --session 99; list them with 'sleeve sessions --session all'\n"
    )
  }

  @Test(
    "a file that is not a Sleeve database exits 65 and is not changed",
    arguments: ["noise", "foreign", "newer"])
  func notASleeveDatabase(kind: String) async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("\(kind).sqlite")
    switch kind {
    case "noise":
      try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }).write(
        to: URL(fileURLWithPath: path))
    case "foreign":
      try Connection(path: path).execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    default:
      try SleeveDatabase.openForWriting(path: path).execute(
        "INSERT INTO schema_migrations VALUES ('0999_future', 0)")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    for command in ["sessions", "errors", "latency", "flags", "check"] {
      let result = await CLIRunner.run([command, "--db", path])
      #expect(result.exit == 65, "\(command) on \(kind)")
      #expect(result.error.hasPrefix("Error: '\(path)' "))
      #expect(result.error.split(separator: "\n").count == 1)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("SQL in a filter is harmless: it matches nothing and changes nothing")
  func sqlInFiltersIsHarmless() async throws {
    let fixture = try FixtureDatabase.standard()
    let before = try Data(contentsOf: URL(fileURLWithPath: fixture.path))
    let byName = await CLIRunner.run(
      ["errors", "--db", fixture.path, "--session", "all", "--name", "x' OR 1=1 --"])
    #expect(byName.exit == 66)
    let byHandler = await CLIRunner.run(
      [
        "errors", "--db", fixture.path, "--session", "all", "--handler",
        "x'; DROP TABLE outcomes; --",
      ])
    #expect(byHandler.exit == 0)
    #expect(!byHandler.out.contains("validate"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.path)) == before)
  }

  @Test("check with nothing to check is a usage error")
  func checkWithNothingToCheck() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(["check", "--db", fixture.path])
    #expect(result.exit == 64)
    #expect(result.error.hasPrefix("Error: Nothing to check"))
  }

  static let sqliteCodes: [(Int32, Int32)] = [
    (5, 75), (6, 75), (14, 66), (26, 65), (11, 65), (10, 74), (13, 74),
  ]

  @Test("SQLite failures map to their documented exit codes", arguments: sqliteCodes)
  func sqliteCodesMapToExitCodes(code: Int32, exit: Int32) {
    let (mapped, message) = SleeveCLI.failure(SQLiteError(code: code, message: "m"))
    #expect(mapped.rawValue == exit)
    #expect(message?.hasPrefix("SQLite error") == true)
  }
}
