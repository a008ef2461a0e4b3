import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// A `sleeve prune` process killed (SIGKILL) at any point never loses the file.
@Suite("Prune crash safety")
struct PruneCrashTests {
  /// What a session held before any prune.
  struct Original: Sendable {
    let rows: Int64
    let summaries: [OutcomeSummary.Key: OutcomeSummary]
  }

  static let sessions: ClosedRange<Int64> = 1...8

  /// Eight ended sessions of 20,000 outcomes (and fires) each, the first four summarized, and
  /// one cut-off session; returned checkpointed, as the bytes of its file.
  static func fixture() throws -> (bytes: Data, originals: [Int64: Original]) {
    let fixture = try FixtureDatabase()
    var random = SeededGenerator(seed: 1_515)
    for session in sessions {
      try fixture.session(session, name: "run \(session)", startedSeconds: 1_700_000_000 + session)
      for handler: Int64 in 1...4 {
        try fixture.handler(session: session, number: handler, name: "h\(handler)", control: "c")
        try fixture.samples(
          session: session, handler: handler,
          (0..<5_000).map { _ in
            FixtureDatabase.Sample(
              Int64.random(in: 1_000...9_000_000, using: &random), failed: random.next() % 50 == 0)
          })
      }
    }
    try fixture.session(9, name: "cut off", startedSeconds: 1_600_000_000, status: "running")
    _ = try SessionSummarizer.summarize(
      sessions: [1, 2, 3, 4], rebuild: false, connection: fixture.connection)
    var originals: [Int64: Original] = [:]
    for session in sessions {
      originals[session] = Original(
        rows: try rawRows(session, fixture.connection),
        summaries: try OutcomeSummaries.build(session: session, connection: fixture.connection))
    }
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return (try Data(contentsOf: URL(fileURLWithPath: fixture.path)), originals)
  }

  static func rawRows(_ session: Int64, _ connection: Connection) throws -> Int64 {
    var total: Int64 = 0
    for table in ["fires", "outcomes", "interactions"] {
      total +=
        try connection.scalarInt(
          "SELECT count(*) FROM \(table) WHERE id BETWEEN \(session << 32) AND \(session << 32 | 0xFFFF_FFFF)"
        ) ?? 0
    }
    return total
  }

  /// Checks the file after a kill: it opens, is whole, and each session is pruned and marked
  /// (no raw rows, its summaries exact) or untouched (all its raw rows, summaries exact or
  /// none); returns how many were pruned.
  static func verify(_ path: String, _ originals: [Int64: Original], trial: String) throws -> Int {
    let connection = try SleeveDatabase.openForWriting(path: path)
    #expect(try connection.scalarText("PRAGMA integrity_check") == "ok", "\(trial)")
    var pruned = 0
    for session in sessions {
      let original = try #require(originals[session])
      let state = try SummaryTables.state(of: session, connection: connection)
      let rows = try rawRows(session, connection)
      if state?.isPruned == true {
        pruned += 1
        #expect(rows == 0, "\(trial): session \(session) is marked pruned with \(rows) raw rows")
      } else {
        #expect(rows == original.rows, "\(trial): session \(session) lost raw rows unmarked")
        // Summarized first in the transaction that prunes it: never one without the other.
        #expect(session <= 4 || state == nil, "\(trial): session \(session) summarized, not pruned")
      }
      if state != nil {
        #expect(
          try SummaryTables.read(session: session, connection: connection) == original.summaries,
          "\(trial): session \(session)'s summaries changed")
      } else {
        #expect(session > 4, "\(trial): summarized session \(session) lost its summaries")
      }
    }
    return pruned
  }

  @Test("a prune killed with SIGKILL at several points leaves each session pruned or untouched")
  func killedMidPrune() async throws {
    // Building the file and waiting for the children take seconds: on threads of their own,
    // off the cooperative pool that the time-bounded recorder tests beside this one need.
    let (bytes, originals) = try await OffThePool.run { try Self.fixture() }
    let directory = TemporaryDirectory()
    let binary = ChildProcess.sleeveBinary
    // Sessions 1 to 5 are pruned and 6 to 8 kept, so VACUUM has their pages to copy and the
    // kills can land in it too. How long a whole prune takes here: the kills are spread over it.
    let prune = ["prune", "--keep-last", "3", "--db"]
    let calibration = directory.path("calibration.sqlite")
    try bytes.write(to: URL(fileURLWithPath: calibration))
    let clock = ContinuousClock()
    let start = clock.now
    let whole = try await ChildProcess.runOffThePool(binary, prune + [calibration])
    let duration = clock.now - start
    #expect(whole.status == 0, "\(whole.output)")
    #expect(try Self.verify(calibration, originals, trial: "uninterrupted") == 5)
    var seen: [String] = []
    for tenth in 0..<10 {
      let fraction = (Double(tenth) + 0.5) / 10
      let path = directory.path("killed-\(tenth).sqlite")
      try bytes.write(to: URL(fileURLWithPath: path))
      let (result, killed) = try await OffThePool.run {
        try ChildProcess.run(binary, prune + [path], timeout: duration * fraction)
      }
      let trial = "killed at \(fraction) of \(duration)"
      #expect(killed || result.status == 0, "\(trial): \(result.output)")
      let pruned = try Self.verify(path, originals, trial: trial)
      #expect(pruned <= 5, "\(trial): pruned a kept session")
      let size = DatabaseFootprint.fileBytes(path)
      seen.append(
        "\(fraction): \(killed ? "killed" : "finished"), \(pruned) pruned, \(size) bytes")
      // Queries answer, and a prune run again finishes the job.
      let listed = try await ChildProcess.runOffThePool(
        binary, ["sessions", "--db", path, "--format", "csv"])
      #expect(listed.status == 0, "\(trial): \(listed.output)")
      let again = try await ChildProcess.runOffThePool(
        binary, ["prune", "--db", path, "--keep-last", "0"])
      #expect(again.status == 0, "\(trial): \(again.output)")
      #expect(try Self.verify(path, originals, trial: trial + ", pruned again") == 8)
    }
    print("PruneCrashTests (seed 1515, whole prune \(duration)): " + seen.joined(separator: "; "))
  }
}
