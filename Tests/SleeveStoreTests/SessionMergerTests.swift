import SleeveTestSupport
import Testing

@testable import SleeveStore

@Suite("Session merger")
struct SessionMergerTests {
  @Test("copies in chunks, reporting progress that rises to 1 for each session")
  func chunkedProgress() throws {
    let input = try FixtureDatabase()
    try input.session(1, name: "big")
    try input.handler(session: 1, number: 1, name: "tap", control: "button")
    try input.outcomes(session: 1, handler: 1, durations: Array(repeating: 2, count: 1_000))
    try input.session(2, name: "small", startedSeconds: 1_700_000_100)
    try input.handler(session: 2, number: 1, name: "tap", control: "button")
    try input.outcomes(session: 2, handler: 1, durations: [1, 2, 3])
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    var steps: [SessionMerger.Progress] = []
    let report = try SessionMerger(target: target, chunk: 100).merge(
      path: input.path, includeUnterminated: false
    ) { steps.append($0) }
    #expect(report.outcomes == 1_003)
    #expect(report.copied == ["big", "small"])
    let big = steps.filter { $0.session == 1 }.map(\.fraction)
    #expect(big.count >= 10)
    #expect(big == big.sorted())
    #expect(big.last == 1)
    #expect(steps.last == SessionMerger.Progress(session: 2, sessions: 2, fraction: 1))
    #expect(try target.scalarInt("SELECT count(*) FROM outcomes") == 1_003)
    #expect(try target.scalarInt("SELECT count(*) FROM fires") == 1_003)
    // Every copied outcome points at a copied fire and registration of its own session.
    #expect(
      try target.scalarInt(
        """
        SELECT count(*) FROM outcomes o JOIN fires f ON f.id = o.fire_id
          JOIN registrations r ON r.id = o.registration_id
        WHERE o.id >> 32 = f.id >> 32 AND o.id >> 32 = r.session_id
        """) == 1_003)
  }

  @Test("the input is never write-locked: its recorder can write while a session is copied")
  func inputStaysWritable() throws {
    let input = try FixtureDatabase()
    try input.session(1, name: "big")
    try input.handler(session: 1, number: 1, name: "tap", control: "button")
    try input.outcomes(session: 1, handler: 1, durations: Array(repeating: 2, count: 300))
    let recorder = try Connection(path: input.path, busyTimeout: .zero)
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    var writesDuringCopy = 0
    _ = try SessionMerger(target: target, chunk: 100).merge(
      path: input.path, includeUnterminated: false
    ) { step in
      guard step.fraction < 1 else { return }  // inside the session's copy transaction
      try? recorder.execute(
        """
        INSERT INTO flag_events (key, state, actor, at_unix_ns)
        VALUES ('probe', 'enabled', 'recorder', \(writesDuringCopy))
        """)
      writesDuringCopy += 1
    }
    #expect(writesDuringCopy >= 2)
    #expect(
      try recorder.scalarInt("SELECT count(*) FROM flag_events WHERE key = 'probe'")
        == Int64(writesDuringCopy))
  }

  @Test("a copy is refreshed only by a more complete one, keeping its session id")
  func refreshOnlyWhenNewer() throws {
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    let merger = SessionMerger(target: target)
    let early = try FixtureDatabase()
    try early.session(1, name: "live", status: "running")
    try early.handler(session: 1, number: 1, name: "tap", control: "button")
    try early.outcomes(session: 1, handler: 1, durations: [1, 2])
    let later = try FixtureDatabase()
    try later.session(1, name: "live", status: "running")
    try later.handler(session: 1, number: 1, name: "tap", control: "button")
    try later.outcomes(session: 1, handler: 1, durations: [1, 2, 3, 4])
    try later.connection.execute("UPDATE sessions SET heartbeat_unix_ns = heartbeat_unix_ns + 1")
    let other = try FixtureDatabase()
    try other.session(1, name: "other", uuidNumber: 7)
    _ = try merger.merge(path: other.path, includeUnterminated: true)

    #expect(try merger.merge(path: later.path, includeUnterminated: true).copied == ["live"])
    let id = try target.scalarInt("SELECT id FROM sessions WHERE name = 'live'")
    let stale = try merger.merge(path: early.path, includeUnterminated: true)
    #expect(stale.refreshed.isEmpty && stale.alreadyPresent == 1)
    #expect(try target.scalarInt("SELECT count(*) FROM outcomes WHERE id >> 32 = \(id ?? 0)") == 4)

    try later.outcomes(session: 1, handler: 1, durations: [5])
    try later.connection.execute(
      "UPDATE sessions SET status = 'ended', ended_unix_ns = heartbeat_unix_ns")
    #expect(try merger.merge(path: later.path, includeUnterminated: false).refreshed == ["live"])
    #expect(try target.scalarInt("SELECT id FROM sessions WHERE name = 'live'") == id)
    #expect(try target.scalarInt("SELECT count(*) FROM outcomes WHERE id >> 32 = \(id ?? 0)") == 5)
    #expect(try target.scalarInt("SELECT count(*) FROM sessions") == 2)
  }

  @Test("outcomes whose fire row was lost are copied too, and foreign keys are back on after")
  func orphanedOutcomes() throws {
    let input = try FixtureDatabase.standard()
    try input.connection.execute("PRAGMA foreign_keys = OFF")
    try input.connection.execute(
      "DELETE FROM fires WHERE id = (SELECT fire_id FROM outcomes WHERE status = 1 LIMIT 1)")
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("out.sqlite"))
    let report = try SessionMerger(target: target).merge(
      path: input.path, includeUnterminated: false)
    #expect(report.outcomes == 29)
    #expect(try target.scalarInt("SELECT count(*) FROM fires") == 28)
    #expect(try target.scalarInt("PRAGMA foreign_keys") == 1)
  }
}
