import Foundation
import SleeveQuery
import SleeveTestSupport
import Testing

@Suite("End to end", .serialized)
struct EndToEndTests {
  @Test("demo records a session, then every command answers from its database")
  func demoThenEveryCommand() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("demo.sqlite")
    // In a child process: the demo records on the main actor, which the test process's
    // @MainActor suites share (CLIRunner.runChild).
    let demo = try await CLIRunner.runChild(["demo", "--db", path, "--fires", "3000"])
    #expect(demo.exit == 0)
    #expect(demo.out.contains("Try next:"))
    #expect(demo.out.contains("sleeve check --db \(path)"))

    let sessions = await CLIRunner.run(["sessions", "--db", path, "--format", "json"])
    #expect(sessions.exit == 0)
    #expect(sessions.out.contains("\"status\": \"ended\""))

    let errors = await CLIRunner.run(["errors", "--db", path, "--by", "handler"])
    #expect(errors.exit == 0)
    for handler in [
      "charge-card", "submit-order", "validate-promo", "fetch-shipping-quote",
      "CancelRouter.dismiss",
    ] {
      #expect(errors.out.contains(handler), "errors lists \(handler)")
    }
    let owned = try #require(
      try QueryDatabase(path: path).errorRates(matching: QueryFilter(), by: .handler)
        .first { $0.key == "track-purchase" })
    #expect(owned.ownerReleased == 1)

    let latency = await CLIRunner.run([
      "latency", "--db", path, "--percentiles", "50,90,99.9", "--format", "csv",
    ])
    #expect(latency.exit == 0)
    #expect(latency.out.hasPrefix("handler,n,min,mean,p50,p90,p99.9,max\n"))

    let flags = await CLIRunner.run(["flags", "--db", path])
    #expect(flags.exit == 0)
    #expect(flags.out.contains("new-checkout  rolledBack  payments-team"))
    #expect(flags.out.contains("rolledBack (error rate over 2% in the demo) by sleeve demo"))

    for by in ["control", "event", "flag", "variant", "session"] {
      let grouped = await CLIRunner.run(["errors", "--db", path, "--by", by, "--format", "json"])
      #expect(grouped.exit == 0, "errors --by \(by)")
    }

    // The demo's new checkout fails about 6% of the time against a 2% threshold: roll back.
    let gate = await CLIRunner.run(["check", "--db", path])
    #expect(gate.exit == 1)
    #expect(gate.out.contains("Decision: rollback (exit 1)"))
    let held = await CLIRunner.run([
      "check", "--db", path, "--handler", "validate-cart", "--max-p99", "1s", "--min-samples",
      "1000000",
    ])
    #expect(held.exit == 2)
    let passed = await CLIRunner.run(
      [
        "check", "--db", path, "--handler", "validate-cart", "--max-error-rate", "1%", "--max-p99",
        "10s",
      ])
    #expect(passed.exit == 0)

    let status = await CLIRunner.run(["migrate", "--db", path, "--status"])
    #expect(status.exit == 0)
    #expect(
      status.out
        == "applied  0001_initial\napplied  0002_row_ids\napplied  0003_run_context\napplied  0004_interactions\napplied  0005_summaries\napplied  0006_summary_rollups\napplied  0007_rollouts\napplied  0008_deliveries\napplied  0009_summary_checksums\n"
    )
    let migrate = await CLIRunner.run(["migrate", "--db", path])
    #expect(migrate.out == "'\(path)' is up to date.\n")
  }

  @Test("the sleeve binary runs and exits with the documented codes")
  func binaryExitCodes() async throws {
    let binary = ChildProcess.sleeveBinary
    try #require(FileManager.default.isExecutableFile(atPath: binary))
    func run(_ arguments: [String]) async throws -> Int32 {
      try await ChildProcess.run(binary, arguments, standardOutput: FileHandle.nullDevice).status
    }
    #expect(try await run(["--version"]) == 0)
    #expect(try await run(["latency", "--percentiles", "101"]) == 64)
    #expect(try await run(["errors", "--db", "/nonexistent/x.sqlite"]) == 66)
  }
}
