import SleeveStore
import SleeveTestSupport
import Testing

/// What the commands say of where their answers came from, and their exit codes when the
/// rows they need are gone or damaged.
@Suite("Answers from summaries, on the command line")
struct SummaryOutputTests {
  @Test("latency from summaries states each percentile's bound and says it answered from summaries")
  func latencySaysItsMethod() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.summarizeEnded()
    let result = await CLIRunner.run(["latency", "--db", fixture.path, "--session", "all"])
    #expect(result.exit == 0, "\(result.error)")
    #expect(result.out.contains("Answered from summaries"))
    #expect(result.out.contains("±1.083%"))
    #expect(result.out.contains("numpy method='lower'"))
    let exact = await CLIRunner.run([
      "latency", "--db", fixture.path, "--session", "all", "--exact",
    ])
    #expect(exact.out.contains("Answered from raw rows (exact)"))
    #expect(!exact.out.contains("±"))
    let json = await CLIRunner.run([
      "errors", "--db", fixture.path, "--session", "all", "--format", "json",
    ])
    #expect(json.out.contains("\"answeredFrom\": \"summaries\""), "\(json.out)")
  }

  @Test(
    "a damaged summary or rollup is exit 65 naming the session or block; --exact still answers")
  func damagedIsDataError() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.summarizeEnded()
    try fixture.connection.execute(
      "UPDATE summary_rollups SET histogram = x'0102'")
    let rollup = await CLIRunner.run(["latency", "--db", fixture.path, "--session", "all"])
    #expect(rollup.exit == 65)
    #expect(rollup.error.contains("rollup of sessions 1–63 is damaged"), "\(rollup.error)")
    // Without rollups (a file from before 0006), each session's own summaries are read.
    try fixture.connection.execute(
      """
      DELETE FROM summary_blocks;
      UPDATE outcome_summaries SET histogram = x'0102' WHERE registration_id >> 32 = 2
      """)
    let result = await CLIRunner.run(["latency", "--db", fixture.path, "--session", "all"])
    #expect(result.exit == 65)
    #expect(result.error.contains("session 2 has a damaged latency summary"), "\(result.error)")
    #expect(result.error.split(separator: "\n").count == 1)
    let exact = await CLIRunner.run([
      "latency", "--db", fixture.path, "--session", "all", "--exact",
    ])
    #expect(exact.exit == 0, "\(exact.error)")
  }

  @Test("--exact over a pruned session is exit 69 naming it; --exact with --method histogram is 64")
  func prunedIsUnavailable() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.summarizeEnded()
    try SummaryTables.markPruned(
      session: 1, unixNanoseconds: 1, connection: fixture.connection)
    try fixture.connection.execute(
      "DELETE FROM outcomes WHERE id >> 32 = 1; DELETE FROM fires WHERE id >> 32 = 1")
    let exact = await CLIRunner.run([
      "errors", "--db", fixture.path, "--session", "all", "--exact",
    ])
    #expect(exact.exit == 69)
    #expect(exact.error.contains("session 1 was pruned"), "\(exact.error)")
    let answered = await CLIRunner.run(["errors", "--db", fixture.path, "--session", "all"])
    #expect(answered.exit == 0)
    #expect(answered.out.contains("Raw rows are gone (pruned) for session 1."))
    let contradiction = await CLIRunner.run([
      "latency", "--db", fixture.path, "--exact", "--method", "histogram",
    ])
    #expect(contradiction.exit == 64)
  }

  @Test("--by event with --method histogram is exit 69 naming what it needs, for every query")
  func byEventWithHistogramIsUnavailable() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.summarizeEnded()
    for command in ["errors", "latency"] {
      let result = await CLIRunner.run([
        command, "--db", fixture.path, "--session", "all", "--by", "event", "--method",
        "histogram",
      ])
      #expect(result.exit == 69, "\(command): \(result.out)")
      #expect(result.out.isEmpty, "\(command): \(result.out)")
      #expect(
        result.error.contains("--by event needs raw rows")
          && result.error.contains("--method histogram"),
        "\(command): \(result.error)")
      #expect(result.error.split(separator: "\n").count == 1)
    }
    let raw = await CLIRunner.run([
      "latency", "--db", fixture.path, "--session", "all", "--by", "event",
    ])
    #expect(raw.exit == 0 && raw.out.contains("Answered from raw rows"), "\(raw.error)")
  }
}
