import Foundation
import SleeveCore
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Arguments at and past their edges: a usage error naming the valid range, never a trap or an
/// error from deep inside SQLite.
@Suite("Argument bounds")
struct ArgumentBoundsTests {
  @Test(
    "--since outside 64-bit Unix nanoseconds is exit 64 naming the range",
    arguments: [
      "9999-12-31", "2262-04-12", "1677-09-21", "0001-01-01", "200000d", "1000000000000000000s",
      "99999999999999999999w",
    ])
  func sinceOutOfRange(value: String) async throws {
    let fixture = try FixtureDatabase.standard()
    for command in ["sessions", "errors", "export"] {
      let result = await CLIRunner.run([command, "--db", fixture.path, "--since", value])
      #expect(result.exit == 64, "\(command) --since \(value)")
      #expect(result.error.contains("between 1677-09-22 and 2262-04-11"))
    }
  }

  @Test("--since at the edges of the range is accepted")
  func sinceAtTheEdges() throws {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    #expect(try ValueParsers.since("2262-04-11", now: now) == 9_223_286_400_000_000_000)
    #expect(try ValueParsers.since("1677-09-22", now: now) == -9_223_286_400_000_000_000)
    #expect(try ValueParsers.since("2h", now: now) == 1_799_992_800_000_000_000)
  }

  @Test(
    "an option value or argument over 4,096 bytes is exit 64 without echoing it",
    arguments: [
      ["sessions", "--name", "LONG"], ["errors", "--handler", "LONG"],
      ["rollback", "f", "--reason", "LONG"], ["merge", "LONG", "in.sqlite"],
      ["sessions", "--db=LONG"],
    ])
  func longValues(arguments: [String]) async {
    let long = String(repeating: "é", count: 2_049)  // 4,098 bytes
    let result = await CLIRunner.run(
      arguments.map { $0.replacingOccurrences(of: "LONG", with: long) })
    #expect(result.exit == 64)
    #expect(result.error.contains("4098 bytes long; at most 4096 are accepted"), "\(result.error)")
    #expect(!result.error.contains(long))
  }

  @Test("a value of exactly 4,096 bytes is taken")
  func longestValue() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run([
      "sessions", "--db", fixture.path, "--name", String(repeating: "*", count: 4_096),
    ])
    #expect(result.exit == 0, "\(result.error)")
  }

  @Test("demo --fires past 100 million is exit 64, not an endless run")
  func demoFiresBound() async {
    let result = await CLIRunner.run(["demo", "--fires", "9223372036854775807"])
    #expect(result.exit == 64)
    #expect(result.error.contains("from 1 to 100000000"))
  }

  @Test(
    "before the subcommand only --db and --format are taken, and only where the command has them",
    arguments: [
      (["--control", "x", "sessions"], "Unknown option '--control'"),
      (["--format", "json", "migrate"], "The option '--format' does not apply to 'migrate'"),
      (["--db", "x.sqlite", "merge", "a", "b"], "The option '--db' does not apply to 'merge'"),
      (["--by", "flag", "errors"], "Unknown option '--by'"),
    ])
  func leadingOptions(arguments: [String], message: String) async {
    let result = await CLIRunner.run(arguments)
    #expect(result.exit == 64)
    #expect(result.error.hasPrefix("Error: \(message)\n"), "\(result.error)")
  }

  @Test("a leading --db or --format reaches a command that takes it")
  func leadingOptionsApply() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(["--db", fixture.path, "--format", "json", "sessions"])
    #expect(result.exit == 0)
    #expect(result.out.hasPrefix("{"))
  }

  @Test("flag commands record key, reason and actor within the recorded-text caps")
  func flagCommandsAreCapped() async throws {
    let fixture = try FixtureDatabase.standard()
    let key = String(repeating: "k", count: FlagKey.maximumLength)
    let reason = String(repeating: "é", count: 2_000)  // 4,000 bytes: under the cap, kept whole
    let result = await CLIRunner.run([
      "rollback", key, "--reason", reason, "--actor", String(repeating: "a", count: 3_000),
      "--create", "--db", fixture.path,
    ])
    #expect(result.exit == 0, "\(result.error)")
    let reader = try Connection(path: fixture.path, mode: .readOnly)
    let statement = try reader.prepare(
      "SELECT length(CAST(key AS BLOB)), length(CAST(reason AS BLOB)), "
        + "length(CAST(actor AS BLOB)) FROM flag_events WHERE actor LIKE 'aaa%'")
    #expect(try statement.step())
    #expect(statement.int64(at: 0) == Int64(FlagKey.maximumLength))
    #expect(statement.int64(at: 1) == 4_000)
    #expect(statement.int64(at: 2) <= 1_024)
    let again = await CLIRunner.run(["enable", key, "--db", fixture.path])
    #expect(again.exit == 0, "the same long key is known again: \(again.error)")
  }

  @Test(
    "flag commands refuse a key that breaks the flag-key rule (64), naming the rule",
    arguments: [
      "checkout:v2", "new checkout", ".leading", "", "ключ", String(repeating: "k", count: 129),
    ])
  func invalidFlagKeys(key: String) async throws {
    let fixture = try FixtureDatabase.standard()
    for command in ["rollback", "enable", "disable"] {
      let result = await CLIRunner.run([
        command, key, "--reason", "r", "--create", "--db", fixture.path,
      ])
      #expect(result.exit == 64, "\(command) '\(key)': \(result.error)")
      #expect(result.error.contains("is not a flag key"))
    }
    let reader = try Connection(path: fixture.path, mode: .readOnly)
    #expect(try reader.scalarInt("SELECT count(*) FROM flag_events") == 2)
  }

  @Test(
    "dates and times that do not exist, and non-decimal amounts, are 64, never rolled over",
    arguments: [
      "2026-02-30", "2026-04-31", "2026-12-01T25:00:00Z", "2026-02-29T36:00:00Z", "0x10h",
      "1e3s", "nans", "-5h",
    ])
  func impossibleSince(value: String) async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(["sessions", "--db", fixture.path, "--since", value])
    #expect(result.exit == 64, "\(value): \(result.error)")
  }

  @Test("durations up to Int64 nanoseconds are taken; past it, 64 saying the limit")
  func durationEdges() throws {
    #expect(try ValueParsers.duration("9223372036854775807ns") == .max)
    #expect(try ValueParsers.duration("9223372036s") == 9_223_372_036_000_000_000)
    #expect(throws: ValueError.self) { try ValueParsers.duration("9223372037s") }
    for text in ["0x10ms", "1e3ms", "nanms", " 5ms", "-5ms"] {
      #expect(throws: ValueError.self, "\(text)") { try ValueParsers.duration(text) }
    }
    for text in ["0x10", " 50", "50 ", "1e1", "+5"] {
      #expect(throws: ValueError.self, "\(text)") { try ValueParsers.percentiles(text) }
    }
  }
}
