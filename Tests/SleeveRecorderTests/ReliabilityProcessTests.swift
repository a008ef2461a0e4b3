import Foundation
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

@Suite("Reliability: kills and concurrency", .serialized)
struct ReliabilityProcessTests {
  /// Twenty kills at random moments: even runs strict, odd runs batched.
  static let kills = Array(0..<20)

  @Test(
    "kill -9 at random moments, 10 strict and 10 batched: nothing acknowledged is lost",
    arguments: kills)
  func randomKills(run: Int) async throws {
    var generator = SeededGenerator(seed: UInt64(run) &+ 0x51EE7E)
    let strict = run % 2 == 0
    let directory = TemporaryDirectory()
    let path = directory.path("kill-\(run).sqlite")
    var arguments = ["--db", path, "--fires", "0", "--forever", "--report-every", "100"]
    if strict { arguments.append("--strict") }
    let child = try ProbeProcess(arguments: arguments)
    let lines = Int.random(in: 1...6, using: &generator)
    let pause = useconds_t(Int.random(in: 0...20_000, using: &generator))
    let acknowledgements = try await child.killHard(
      after: lines, startingWith: "acknowledged ", then: { usleep(pause) })
    try #require(acknowledgements.count == lines, "the probe ended before it was killed")
    let acknowledged = Int(acknowledgements.last?.dropFirst("acknowledged ".count) ?? "") ?? 0
    let reader = try Inspector(path: path)
    #expect(try reader.text("PRAGMA integrity_check") == "ok")
    let fires = try reader.count("fires")
    #expect(fires >= acknowledged, "\(strict ? "strict" : "batched"): \(fires) < \(acknowledged)")
    #expect(try reader.count("outcomes") == fires)  // fires and outcomes commit together
    let row = try #require(
      try reader.rows("SELECT status, host, pid, heartbeat_unix_ns FROM sessions").first)
    let columns = row.split(separator: "|").map(String.init)
    #expect(
      SessionLiveness.classify(
        status: columns[0], host: columns[1], pid: Int64(columns[2]) ?? 0,
        heartbeatUnixNanoseconds: Int64(columns[3]) ?? 0) == .unterminated)
  }

  @Test("4 processes × 100,000 outcomes while queries run: all rows, consistent reads, no busy")
  func fourWritersAndAReader() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("busy.sqlite")
    // Create the file first, so the readers never race its creation.
    let children = try (0..<4).map { _ in
      try ProbeProcess(arguments: ["--db", path, "--fires", "100000"])
    }
    var reads = 0
    var running = true
    while running {
      running = children.contains { $0.process.isRunning }
      // Reads back to back, yielding between them: the loop never holds a thread of the
      // cooperative pool for the seconds the writers take.
      await Task.yield()
      guard FileManager.default.fileExists(atPath: path) else {
        try await Task.sleep(for: .milliseconds(1))
        continue
      }
      do {
        // The library behind `sleeve sessions` and `sleeve errors`, as the command runs it.
        let database = try QueryDatabase(path: path)
        var filter = QueryFilter()
        filter.session = .all
        for session in try database.sessions(matching: filter) {
          #expect(session.fires == session.outcomes, "a batch was partly visible")
        }
        let errors = try database.errorRates(matching: filter, by: .session)
        let total = errors.reduce(0) { $0 + $1.n }
        let fires = try database.sessions(matching: filter).reduce(0) { $0 + $1.fires }
        #expect(total <= fires)
        reads += 1
      } catch QueryError.sqlite(let error, _) where error.primaryCode == SQLiteError.busy {
        Issue.record("SQLITE_BUSY reached a reader")
      } catch QueryError.store(.noSessionsYet), QueryError.sessionNotFound {
        // The file is still being created and migrated, or has no session yet.
        try await Task.sleep(for: .milliseconds(1))
      } catch {
        Issue.record("a reader failed while the writers ran: \(error)")
      }
    }
    for child in children {
      #expect(try await child.waitForLine(startingWith: "ended") == "ended")
      #expect(await child.waitForExit() == 0)
    }
    let reader = try Inspector(path: path)
    #expect(try reader.count("outcomes") == 400_000)
    #expect(
      try reader.rows("SELECT count(*) FROM outcomes GROUP BY id >> 32")
        == Array(repeating: "100000", count: 4))
    #expect(reads > 0)
  }
}
