import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

/// Commands at the edges (issue 10, items 13, 16, 21 and 23): hostile values a file can hold,
/// the gate and the report deciding alike, filters that match nothing.
@Suite("Commands at the edges")
struct EdgeAnswerCLITests {
  /// A file holding the extreme values of issue 10, item 13, besides the standard sessions.
  static func hostileFile() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase.standard()
    try fixture.session(.max, name: "huge id", startedSeconds: 1_700_000_200, uuidNumber: 7)
    try fixture.session(3, name: "extreme", startedSeconds: 1_700_000_300, status: "running")
    try fixture.handler(session: 3, number: 1, name: "slow", control: "c", flag: "new-pay")
    try fixture.outcomes(
      session: 3, handler: 1, durations: Array(repeating: .max, count: 35), variant: 1)
    try fixture.outcomes(
      session: 3, handler: 1, durations: Array(repeating: .min, count: 35), variant: 0)
    try fixture.connection.execute(
      """
      UPDATE sessions SET heartbeat_unix_ns = \(Int64.min) WHERE id = 3;
      UPDATE sessions SET started_unix_ns = \(Int64.min), ended_unix_ns = \(Int64.max) WHERE id = 2;
      UPDATE flags SET max_p99_ns = \(Int64.max);
      """)
    return fixture
  }

  @Test(
    "values a file can hold (ids, times and durations at Int64's ends) never trap a command",
    arguments: [
      ["sessions"], ["sessions", "--format", "json"], ["errors", "--session", "all"],
      ["latency", "--session", "all", "--percentiles", "0,50,99.9,100"],
      ["latency", "--session", "all", "--format", "csv"], ["flags", "--session", "all"],
      ["flags", "--session", "all", "--format", "json"], ["check", "--session", "all"],
      ["report", "--session", "all"], ["report", "--session", "all", "--format", "json"],
      ["errors", "--session", String(Int64.max)], ["sessions", "--session", "3"],
    ])
  func hostileValuesNeverTrap(arguments: [String]) async throws {
    let fixture = try Self.hostileFile()
    let result = await CLIRunner.run(arguments + ["--db", fixture.path])
    #expect([0, 1, 2].contains(result.exit), "\(arguments): \(result.error)")
    #expect(!result.out.isEmpty)
  }

  @Test("merge copies a file holding such values, and refuses (65) an output out of session ids")
  func mergeOfHostileValues() async throws {
    let fixture = try Self.hostileFile()
    let directory = TemporaryDirectory()
    let out = directory.path("all.sqlite")
    let merged = await CLIRunner.run(["merge", out, fixture.path, "--include-unterminated"])
    #expect(merged.exit == 0, "\(merged.error)")
    let sessions = await CLIRunner.run(["sessions", "--db", out, "--format", "csv"])
    #expect(sessions.exit == 0)
    #expect(sessions.out.split(separator: "\n").count == 5)  // header + 4 sessions

    let full = directory.path("full.sqlite")
    try SleeveDatabase.openForWriting(path: full).execute(
      """
      INSERT INTO sessions (id, uuid, name, started_unix_ns, heartbeat_unix_ns, status, durability,
        host, pid, os, runtime, sleeve_version, sqlite_version)
      VALUES (\(RowID.sessions.upperBound), 'u', 'last', 0, 0, 'ended', 'batched', 'h', 1, 'os',
        'swift', '0', '0')
      """)
    let refused = await CLIRunner.run(["merge", full, fixture.path])
    #expect(refused.exit == 65)
    #expect(refused.error.contains("has no session ids left"))
    #expect(refused.error.split(separator: "\n").count == 1)
  }

  /// A file whose only flag gates a handler: with `definition`, a threshold check of 40
  /// outcomes (`failed` of them failed); without, nothing to check.
  static func gateFile(definition: Bool, ok: Int, failed: Int) throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "s")
    try fixture.handler(session: 1, number: 1, name: "h", control: "c", flag: "f")
    try fixture.outcomes(
      session: 1, handler: 1, durations: Array(repeating: 5, count: ok), variant: 1)
    try fixture.outcomes(
      session: 1, handler: 1, durations: Array(repeating: 5, count: failed), status: 1, variant: 1)
    if definition {
      try fixture.flag(
        session: 1, key: "f", owner: "o", maxErrorRate: 0.1, maxP99: nil, minSamples: 30,
        states: [])
    }
    return fixture
  }

  @Test(
    "check's exit and the report's decision always agree; nothing to check is 64 and 'nothing-to-check', never promote",
    arguments: [
      (false, 40, 0, Int32(64), "nothing-to-check"), (true, 3, 0, 2, "hold"),
      (true, 40, 0, 0, "promote"), (true, 20, 20, 1, "rollback"),
    ])
  func checkAndReportAgree(
    definition: Bool, ok: Int, failed: Int, exit: Int32, decision: String
  ) async throws {
    let fixture = try Self.gateFile(definition: definition, ok: ok, failed: failed)
    let check = await CLIRunner.run(["check", "--db", fixture.path])
    #expect(check.exit == exit)
    let report = await CLIRunner.run(["report", "--db", fixture.path, "--format", "json"])
    #expect(report.exit == 0)
    #expect(report.out.contains("\"decision\": \"\(decision)\""))
    let markdown = await CLIRunner.run(["report", "--db", fixture.path])
    #expect(markdown.out.contains("**Decision: \(decision)**"))
  }

  @Test(
    "a filter that matches nothing is said on standard error; the answer is an empty table, exit 0",
    arguments: [
      ["errors", "--handler", "nope"], ["latency", "--control", "nope"],
      ["flags", "--flag", "nope"], ["report", "--handler", "nope"],
    ])
  func unmatchedFilterIsSaid(arguments: [String]) async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(arguments + ["--db", fixture.path, "--session", "all"])
    #expect(result.exit == 0)
    #expect(result.error.contains("Note: --\(arguments[1].dropFirst(2)) 'nope' matched no "))
    #expect(!result.out.contains("validate") && !result.out.contains("charge"))
  }

  @Test("a filter that matches keeps standard error empty")
  func matchingFilterIsQuiet() async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run([
      "errors", "--db", fixture.path, "--session", "all", "--handler", "Fixture.swift:1",
    ])
    #expect(result.exit == 0)
    #expect(result.error.isEmpty)
    #expect(result.out.contains("validate") && result.out.contains("charge"))
  }
}
