import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

@Suite("sleeve merge")
struct MergeTests {
  /// Two runners' files: alpha alone in one, beta alone (also as row id 1) in the other.
  private static func runnerFiles() throws -> (FixtureDatabase, FixtureDatabase) {
    let first = try FixtureDatabase()
    try first.addAlpha(as: 1)
    let second = try FixtureDatabase()
    try second.addBeta(as: 1)
    return (first, second)
  }

  private static let reports: [[String]] = [
    ["sessions", "--session", "all", "--format", "json"],
    ["errors", "--session", "all", "--by", "handler", "--format", "json"],
    ["errors", "--session", "all", "--by", "session", "--format", "json"],
    ["latency", "--session", "all", "--by", "handler", "--format", "json"],
    ["latency", "--session", "all", "--by", "variant", "--format", "json"],
    ["flags", "--format", "json"],
    ["check", "--session", "all", "--format", "json"],
    ["report", "--session", "all", "--format", "json"],
  ]

  @Test(
    "every query over the merged file equals the same query over the inputs combined, from summaries and from raw rows"
  )
  func mergedEqualsCombined() async throws {
    let (first, second) = try Self.runnerFiles()
    // merge summarizes the ended sessions it copies from files without summaries, as the
    // recorder does when a session ends: the combined file is summarized the same way.
    let combined = try FixtureDatabase.standard()
    try combined.summarizeEnded()
    let unsummarized = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let out = directory.path("all.sqlite")
    let merge = await CLIRunner.run(["merge", out, first.path, second.path])
    #expect(merge.exit == 0, "\(merge.error)")
    #expect(merge.out.contains("input"))
    for report in Self.reports {
      let merged = await CLIRunner.run(report + ["--db", out])
      let expected = await CLIRunner.run(report + ["--db", combined.path])
      #expect(merged.exit == expected.exit, "\(report)")
      #expect(!merged.out.isEmpty, "\(report)")
      #expect(merged.out == expected.out, "\(report)")
    }
    // --exact answers from raw rows: the merged file equals the unsummarized inputs too.
    for report in Self.reports where ["errors", "latency"].contains(report[0]) {
      let merged = await CLIRunner.run(report + ["--db", out, "--exact"])
      let raw = await CLIRunner.run(report + ["--db", unsummarized.path])
      #expect(merged.exit == 0, "\(report): \(merged.error)")
      #expect(merged.out == raw.out, "\(report)")
    }
  }

  @Test("merging the same files again adds nothing and says so")
  func idempotent() async throws {
    let (first, second) = try Self.runnerFiles()
    let directory = TemporaryDirectory()
    let out = directory.path("all.sqlite")
    let once = await CLIRunner.run(["merge", out, first.path, second.path, "--format", "csv"])
    #expect(once.out.contains("\(first.path),1,0,0,0,26,0"))
    let before = try Self.rowCounts(out)
    let twice = await CLIRunner.run(["merge", out, first.path, second.path, "--format", "csv"])
    #expect(twice.exit == 0)
    #expect(twice.out.contains("\(first.path),0,0,1,0,0,0"))
    #expect(twice.out.contains("\(second.path),0,0,1,0,0,0"))
    #expect(try Self.rowCounts(out) == before)
    #expect(before["outcomes"] == 29)
  }

  @Test("command-line flag changes are copied once, however often a file is merged")
  func commandLineFlagChanges() async throws {
    let (first, second) = try Self.runnerFiles()
    let rollback = await CLIRunner.run([
      "rollback", "new-pay", "--db", first.path, "--reason", "p99 regression", "--actor", "ci",
    ])
    #expect(rollback.exit == 0, "\(rollback.error)")
    let directory = TemporaryDirectory()
    let out = directory.path("all.sqlite")
    for _ in 0..<2 {
      let merge = await CLIRunner.run(["merge", out, first.path, second.path])
      #expect(merge.exit == 0)
    }
    let connection = try SleeveDatabase.openForReading(path: out)
    #expect(
      try connection.scalarInt("SELECT count(*) FROM flag_events WHERE session_id IS NULL") == 1)
    let flags = await CLIRunner.run(["flags", "--db", out])
    #expect(flags.out.contains("rolledBack"))
    #expect(flags.out.contains("p99 regression"))
  }

  @Test("sessions still recording are left out unless --include-unterminated")
  func unterminated() async throws {
    let input = try FixtureDatabase()
    try input.addAlpha(as: 1)
    try input.session(2, name: "live", startedSeconds: 1_700_000_200, status: "running")
    let directory = TemporaryDirectory()
    let out = directory.path("all.sqlite")
    let skipped = await CLIRunner.run(["merge", out, input.path, "--format", "csv"])
    #expect(skipped.exit == 0)
    #expect(skipped.out.contains("\(input.path),1,0,0,1,"))
    #expect(skipped.error.contains("--include-unterminated"))
    let included = await CLIRunner.run([
      "merge", out, input.path, "--include-unterminated", "--format", "json",
    ])
    #expect(included.exit == 0)
    #expect(included.out.contains("\"live\""))
    let sessions = try SleeveDatabase.openForReading(path: out).scalarInt(
      "SELECT count(*) FROM sessions")
    #expect(sessions == 2)
  }

  @Test("merging while a recorder writes into the input; a copy taken before the end is refreshed")
  @MainActor
  func mergeWhileRecording() async throws {
    let directory = TemporaryDirectory()
    let input = directory.path("runner.sqlite")
    let out = directory.path("all.sqlite")
    let recorder = try await Recorder(path: input)
    let finished = try await recorder.startSession(name: "finished")
    let button = Button(name: "pay")
    button.on(.touchUpInside, id: "charge") { _ in }
    finished.attach(button)
    for _ in 0..<500 { button.sendActions(for: .touchUpInside) }
    try await finished.end()

    let live = try await recorder.startSession(name: "live")
    let other = Button(name: "pay")
    other.on(.touchUpInside, id: "charge") { _ in }
    live.attach(other)
    for round in 0..<5 {
      for _ in 0..<2_000 { other.sendActions(for: .touchUpInside) }
      try await live.flush()
      let merge = await CLIRunner.run(["merge", out, input, "--format", "csv"])
      #expect(merge.exit == 0, "round \(round): \(merge.error)")
      #expect(merge.out.contains(round == 0 ? "\(input),1,0,0,1,500," : "\(input),0,0,1,1,0,"))
    }
    // A copy of the live session taken before it ends is replaced in full once it has ended.
    let early = await CLIRunner.run([
      "merge", out, input, "--include-unterminated", "--format", "csv",
    ])
    #expect(early.out.contains("\(input),1,0,1,0,10000,"))
    for _ in 0..<1_000 { other.sendActions(for: .touchUpInside) }
    try await live.end()
    let last = await CLIRunner.run(["merge", out, input, "--format", "csv"])
    #expect(last.out.contains("\(input),0,1,1,0,11000,"))
    let again = await CLIRunner.run(["merge", out, input, "--format", "csv"])
    #expect(again.out.contains("\(input),0,0,2,0,0,"))
    let connection = try SleeveDatabase.openForReading(path: out)
    #expect(try connection.scalarInt("SELECT count(*) FROM outcomes") == 11_500)
    #expect(try connection.scalarInt("SELECT count(*) FROM sessions WHERE status = 'ended'") == 2)
    let sessions = await CLIRunner.run(["sessions", "--db", out, "--format", "csv"])
    #expect(sessions.out.contains(",finished,"))
    #expect(sessions.out.contains(",live,"))
  }

  @Test("a newer input is refused with exit 65 and nothing is copied from it")
  func newerSchemaRefused() async throws {
    let (first, second) = try Self.runnerFiles()
    try second.connection.execute(
      "INSERT INTO schema_migrations (id, applied_unix_ns) VALUES ('9999_future', 0)")
    let directory = TemporaryDirectory()
    let out = directory.path("all.sqlite")
    let result = await CLIRunner.run(["merge", out, first.path, second.path])
    #expect(result.exit == 65)
    #expect(result.error.contains("newer Sleeve"))
    #expect(result.error.split(separator: "\n").count == 1)
    #expect(result.out.contains(first.path))  // the input merged before it is reported
    #expect(try Self.rowCounts(out)["sessions"] == 1)  // the first input was merged
  }

  @Test("merging a file into itself and foreign files are clear errors")
  func badInputs() async throws {
    let (first, _) = try Self.runnerFiles()
    let itself = await CLIRunner.run(["merge", first.path, first.path])
    #expect(itself.exit == 64)
    #expect(itself.error.contains("is the output file itself"))
    let directory = TemporaryDirectory()
    let missing = await CLIRunner.run([
      "merge", directory.path("out.sqlite"), directory.path("nope.sqlite"),
    ])
    #expect(missing.exit == 66)
    let foreign = directory.path("foreign.sqlite")
    try Connection(path: foreign).execute("CREATE TABLE notes (body TEXT)")
    let refused = await CLIRunner.run(["merge", directory.path("out.sqlite"), foreign])
    #expect(refused.exit == 65)
    #expect(refused.error.contains("not a Sleeve database"))
    let usage = await CLIRunner.run(["merge", directory.path("out.sqlite")])
    #expect(usage.exit == 64)
  }

  private static func rowCounts(_ path: String) throws -> [String: Int64] {
    let connection = try SleeveDatabase.openForReading(path: path)
    var counts: [String: Int64] = [:]
    for table in ["sessions", "controls", "registrations", "fires", "outcomes", "flag_events"] {
      counts[table] = try connection.scalarInt("SELECT count(*) FROM \(table)")
    }
    return counts
  }
}
