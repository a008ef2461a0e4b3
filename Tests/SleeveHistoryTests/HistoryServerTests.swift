import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The shared history against a real PostgreSQL server (`TestPostgres`: initdb into a private
/// directory, 127.0.0.1), driven through the `sleeve` binary as CI jobs drive it.
@Suite("The shared history on a real server", .enabled(if: Proofs.run(needs: TestPostgres.tool)))
struct HistoryServerTests {
  @Test("migrate creates the schema once, however many run at once, and is then up to date")
  func migrateOnceConcurrently() async throws {
    let history = try await HistoryServer.fresh(migrated: false)
    let runs = try await withThrowingTaskGroup(of: ChildProcess.Result.self) { group in
      for _ in 0..<4 {
        group.addTask { try await HistoryServer.sleeve(["migrate", "--db", history.url]) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(runs.allSatisfy { $0.status == 0 }, "\(runs.map(\.output))")
    #expect(runs.filter { $0.output.contains("applied  0001_history") }.count == 1)
    #expect(try history.count("SELECT count(*) FROM schema_migrations") == 1)
    let again = try await HistoryServer.sleeve(["migrate", "--db", history.url])
    #expect(again.status == 0)
    #expect(again.output.contains("is up to date"))
  }

  @Test(
    "a newer history is refused (65) by publish, the readers and migrate; an empty one by publish")
  func newerAndEmptyHistoriesAreRefused() async throws {
    let directory = TemporaryDirectory()
    let file = directory.path("runs.sqlite")
    try await HistoryServer.demoHistory(at: file)
    let empty = try await HistoryServer.fresh(migrated: false)
    let unmigrated = try await HistoryServer.sleeve(["publish", "--db", file, "--to", empty.url])
    #expect(unmigrated.status == 65)
    #expect(unmigrated.output.contains("sleeve migrate --db URL"))
    #expect(try empty.count("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0)

    let newer = try await HistoryServer.fresh()
    try newer.psql("INSERT INTO schema_migrations VALUES ('9999_future', 0)")
    for arguments in [
      ["publish", "--db", file, "--to", newer.url], ["sessions", "--db", newer.url],
      ["migrate", "--db", newer.url],
    ] {
      let result = try await HistoryServer.sleeve(arguments)
      #expect(result.status == 65, "\(arguments[0]): \(result.output)")
      #expect(result.output.contains("newer Sleeve history"), "\(result.output)")
    }
    #expect(try newer.count("SELECT count(*) FROM sessions") == 0)
  }

  @Test("publishing twice sends nothing new: every ended session once, whole")
  func publishTwice() async throws {
    let directory = TemporaryDirectory()
    let file = directory.path("runs.sqlite")
    try await HistoryServer.demoHistory(at: file)
    let reference = directory.path("reference.sqlite")
    try await HistoryServer.mergedAndPruned([file], at: reference)
    let history = try await HistoryServer.fresh()
    let first = try await HistoryServer.sleeve(["publish", "--db", file, "--to", history.url])
    #expect(first.status == 0, "\(first.output)")
    #expect(first.output.contains("Published 15 sessions"))
    let second = try await HistoryServer.sleeve(["publish", "--db", file, "--to", history.url])
    #expect(second.status == 0, "\(second.output)")
    #expect(second.output.contains("Published 0 sessions"))
    #expect(second.output.contains("15 already there"))
    #expect(try history.shapes() == HistoryServer.shapes(ofFile: reference))
    // Publishing again spent no session numbers.
    #expect(try history.count("SELECT max(id) FROM sessions") == 15)
  }

  @Test(
    "16 concurrent publishers of different files, each publishing twice, give exactly the union")
  func concurrentPublishers() async throws {
    let directory = TemporaryDirectory()
    var files: [String] = []
    for index in 0..<16 {
      let file = directory.path("runner-\(index).sqlite")
      let demo = try await HistoryServer.sleeve(["demo", "--db", file, "--fires", "300"])
      try #require(demo.status == 0, "\(demo.output)")
      files.append(file)
    }
    let history = try await HistoryServer.fresh()
    let results = try await withThrowingTaskGroup(of: [ChildProcess.Result].self) { group in
      for file in files {
        group.addTask {
          [
            try await HistoryServer.sleeve(["publish", "--db", file, "--to", history.url]),
            try await HistoryServer.sleeve(["publish", "--db", file, "--to", history.url]),
          ]
        }
      }
      return try await group.reduce(into: []) { $0 += $1 }
    }
    #expect(
      results.allSatisfy { $0.status == 0 }, "\(results.filter { $0.status != 0 }.map(\.output))")
    var expected: [String: [Int]] = [:]
    for file in files { expected.merge(try HistoryServer.shapes(ofFile: file)) { $1 } }
    #expect(expected.count == 16)
    #expect(try history.count("SELECT count(*) FROM sessions") == 16)
    #expect(try history.count("SELECT count(DISTINCT uuid) FROM sessions") == 16)
    let shapes = try history.shapes()
    #expect(Set(shapes.keys) == Set(expected.keys))
    // Whole: each session's summaries and handlers as its own file holds them (pruned).
    let reference = directory.path("reference.sqlite")
    try await HistoryServer.mergedAndPruned(files, at: reference)
    #expect(shapes == (try HistoryServer.shapes(ofFile: reference)))
  }

  @Test(
    "a publish killed at 20 seeded moments leaves each session whole or absent; a rerun completes")
  func killedPublish() async throws {
    let seed = UInt64(ProcessInfo.processInfo.environment["SLEEVE_KILL_SEED"] ?? "") ?? 0x5EED_35
    var generator = SeededGenerator(seed: seed)
    let directory = TemporaryDirectory()
    // 45 sessions (three demo histories): a publish long enough to be caught in the middle.
    var runs: [String] = []
    for index in 0..<3 {
      runs.append(directory.path("runs-\(index).sqlite"))
      try await HistoryServer.demoHistory(at: runs[index])
    }
    let file = directory.path("runs.sqlite")
    let merged = try await HistoryServer.sleeve(["merge", file] + runs)
    try #require(merged.status == 0, "\(merged.output)")
    let reference = directory.path("reference.sqlite")
    try await HistoryServer.mergedAndPruned([file], at: reference)
    let whole = try HistoryServer.shapes(ofFile: reference)
    try #require(whole.count == 45)
    var partial = 0
    for point in 0..<20 {
      // The moment: once `committed` sessions are in, `delay` more milliseconds.
      let committed = Int.random(in: 0...35, using: &generator)
      let delay = Int.random(in: 0...25, using: &generator)
      let history = try await HistoryServer.fresh()
      let process = Process()
      process.executableURL = URL(fileURLWithPath: ChildProcess.sleeveBinary)
      process.arguments = ["publish", "--db", file, "--to", history.url]
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      let deadline = ContinuousClock.now + WaitBounds.hang
      while process.isRunning, try history.count("SELECT count(*) FROM sessions") < committed {
        try #require(ContinuousClock.now < deadline, "seed \(seed): the publish never got going")
      }
      try await Task.sleep(for: .milliseconds(delay))
      kill(process.processIdentifier, SIGKILL)
      process.waitForExit()
      let shapes = try history.shapes()
      if shapes.count < whole.count { partial += 1 }
      for (uuid, shape) in shapes {
        #expect(
          shape == whole[uuid],
          "seed \(seed), point \(point) (\(committed) in, \(delay) ms): session \(uuid) is partial")
      }
      let rerun = try await HistoryServer.sleeve(["publish", "--db", file, "--to", history.url])
      #expect(rerun.status == 0, "seed \(seed), point \(point): \(rerun.output)")
      #expect(
        try history.shapes() == whole, "seed \(seed), point \(point): the rerun did not complete")
    }
    // The kills must land mid-publish, else nothing here was tested.
    #expect(partial > 0, "seed \(seed): no kill landed while the publish was under way")
    print("killedPublish: seed \(seed); \(partial) of 20 kills landed mid-publish")
  }

  @Test("prune --db URL --older-than deletes whole sessions, rows and summaries, and nothing newer")
  func pruneTheHistory() async throws {
    let demo = try await HistoryServer.publishedDemo()
    let (directory, history) = (demo.directory, demo.history)
    // The demo's sessions ended an hour ago at most; a day old, none is.
    let none = try await HistoryServer.sleeve(["prune", "--db", history.url, "--older-than", "1d"])
    #expect(none.status == 0, "\(none.output)")
    #expect(try history.count("SELECT count(*) FROM sessions") == 15)
    let dry = try await HistoryServer.sleeve(
      ["prune", "--db", history.url, "--older-than", "0s", "--dry-run"])
    #expect(dry.output.contains("Would delete 15 sessions"), "\(dry.output)")
    #expect(try history.count("SELECT count(*) FROM sessions") == 15)
    // A session that ends after the cutoff stays: the cutoff is a whole second after the old
    // sessions ended and before the newer one starts, however slow the machine.
    try await Task.sleep(for: .milliseconds(1100))
    let cutoff = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
      .formatted(Date.ISO8601FormatStyle())
    let newer = directory.path("newer.sqlite")
    let recorded = try await HistoryServer.sleeve(["demo", "--db", newer])
    try #require(recorded.status == 0, "\(recorded.output)")
    try await history.publish(newer)
    let pruned = try await HistoryServer.sleeve(
      ["prune", "--db", history.url, "--older-than", cutoff])
    #expect(pruned.status == 0, "\(pruned.output)")
    #expect(pruned.output.contains("Deleted 15 sessions"), "\(pruned.output)")
    #expect(try history.shapes() == HistoryServer.shapes(ofFile: newer))
    for table in [
      "session_context", "session_summaries", "summary_checksums", "controls", "registrations",
      "registration_lifetimes", "outcome_summaries", "failure_summaries", "flags", "flag_events",
      "flag_rollout_plans", "flag_rollout_stages", "flag_check_severities",
    ] {
      let orphans = try history.count(
        "SELECT count(*) FROM \(table) t WHERE NOT EXISTS (SELECT 1 FROM sessions s WHERE "
          + (table.hasPrefix("controls") || table.hasPrefix("registrations")
            ? "t.id >> 32 = s.id"
            : table.hasPrefix("registration_lifetimes")
              || table.hasPrefix("outcome_") || table.hasPrefix("failure_")
              ? "t.registration_id >> 32 = s.id" : "t.session_id = s.id")
          + ")")
      #expect(orphans == 0, "\(table) keeps \(orphans) rows of deleted sessions")
    }
  }

  @Test("an interrupted reader (SIGTERM) leaves no copy of the history behind")
  func interruptedReaderCleansUp() async throws {
    let demo = try await HistoryServer.publishedDemo()
    let (directory, history) = (demo.directory, demo.history)
    let scratch = directory.path("tmp")
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    // The reader waits on a lock while it copies the heads: it is then interrupted mid-copy.
    let (holder, reader) = try await history.blockedReader(environment: ["TMPDIR": scratch])
    defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
    let copies = try FileManager.default.contentsOfDirectory(atPath: scratch)
    #expect(!copies.isEmpty, "the reader made no scratch copy to clean up")
    kill(reader.processIdentifier, SIGTERM)
    reader.waitForExit()
    #expect(reader.terminationReason == .uncaughtSignal)
    #expect(try FileManager.default.contentsOfDirectory(atPath: scratch) == [])
  }

  @Test("a server that stops answering mid-statement ends the command at its deadline (69)")
  func silentServerIsBounded() async throws {
    let demo = try await HistoryServer.publishedDemo()
    let history = demo.history
    // The reader waits on a lock in its server process; that process is then stopped, so the
    // lock's release never reaches the reader and no answer ever comes.
    let pipe = Pipe()
    let (holder, reader) = try await history.blockedReader(
      environment: ["SLEEVE_HISTORY_TIMEOUT": "3"], errors: pipe)
    defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
    let backend = try #require(
      Int32(
        try history.psql("SELECT pid " + HistoryServer.sleeveWaitingOnALock + " LIMIT 1")
          .trimmingCharacters(in: .whitespacesAndNewlines)))
    // The server process runs as another user; `kill` as root reaches it (the tests run as
    // root where the server runs as `postgres`).
    try #require(kill(backend, SIGSTOP) == 0, "cannot stop the server process \(backend)")
    defer { kill(backend, SIGCONT) }
    kill(holder.processIdentifier, SIGKILL)
    let deadline = ContinuousClock.now + WaitBounds.hang
    while reader.isRunning, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(50))
    }
    if reader.isRunning { kill(reader.processIdentifier, SIGKILL) }
    reader.waitForExit()
    let message = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(reader.terminationStatus == 69, "\(message)")
    #expect(message.contains("no answer within 3 s"), "\(message)")
  }

  @Test("the documented roles: a reader cannot publish, a publisher cannot delete (77)")
  func roles() async throws {
    let directory = TemporaryDirectory()
    let file = directory.path("runs.sqlite")
    try await HistoryServer.demoHistory(at: file)
    let history = try await HistoryServer.fresh()
    let grants = try ReadmeSnippet.between(
      "```sql", "```",
      in: String(ReadmeSnippet.section("## Two roles", of: "docs/guide/shared-history.md")))
    let sql = try #require(grants).joined(separator: "\n")
    // Roles are the server's, not the database's: each test's names are its own.
    let suffix = "_" + history.database
    try history.psql(
      sql.replacingOccurrences(of: "sleeve_publisher", with: "sleeve_publisher" + suffix)
        .replacingOccurrences(of: "sleeve_reader", with: "sleeve_reader" + suffix))
    let reader = history.server.url(
      user: "sleeve_reader" + suffix, password: "reader-secret", database: history.database)
    let publisher = history.server.url(
      user: "sleeve_publisher" + suffix, password: "publisher-secret", database: history.database)

    let refused = try await HistoryServer.sleeve(["publish", "--db", file, "--to", reader])
    #expect(refused.status == 77, "\(refused.output)")
    #expect(!refused.output.contains("reader-secret"))
    #expect(try history.count("SELECT count(*) FROM sessions") == 0)

    let published = try await HistoryServer.sleeve(["publish", "--db", file, "--to", publisher])
    #expect(published.status == 0, "\(published.output)")
    #expect(try history.count("SELECT count(*) FROM sessions") == 15)

    let pruned = try await HistoryServer.sleeve(["prune", "--db", publisher, "--older-than", "1s"])
    #expect(pruned.status == 77, "\(pruned.output)")
    #expect(!pruned.output.contains("publisher-secret"))
    #expect(try history.count("SELECT count(*) FROM sessions") == 15)

    let read = try await HistoryServer.answer(["sessions", "--db", reader, "--format", "csv"])
    #expect(read.status == 0)
    #expect(read.out.split(separator: "\n").count == 16)

    let wrong = history.server.url(
      user: "sleeve_reader" + suffix, password: "not-the-Secret-42", database: history.database)
    let denied = try await HistoryServer.sleeve(["sessions", "--db", wrong])
    #expect(denied.status == 77, "\(denied.output)")
    #expect(!denied.output.contains("not-the-Secret-42"))
    #expect(denied.output.contains(":***@"))
  }

  @Test("a server stopped mid-publish gives 69, nothing partial stays, and the rerun finishes")
  func serverStoppedMidPublish() async throws {
    let directory = TemporaryDirectory()
    let file = directory.path("runs.sqlite")
    try await HistoryServer.demoHistory(at: file)
    let server = try TestPostgres.startPrivate()
    defer { try? server.stop() }
    let history = try await HistoryServer.fresh(on: server)
    // A lock the publisher waits on inside its first session's transaction: the server then
    // stops while that transaction is open.
    let holder = try await history.holdLock(on: "session_context")
    defer { if holder.isRunning { kill(holder.processIdentifier, SIGKILL) } }
    async let publish = HistoryServer.sleeve(["publish", "--db", file, "--to", history.url])
    try await history.waitUntilSleeveWaits()
    try server.pause()
    let stopped = try await publish
    #expect(stopped.status == 69, "\(stopped.output)")
    try server.resume()
    #expect(try history.count("SELECT count(*) FROM sessions") == 0)
    let rerun = try await HistoryServer.sleeve(["publish", "--db", file, "--to", history.url])
    #expect(rerun.status == 0, "\(rerun.output)")
    #expect(try history.count("SELECT count(*) FROM sessions") == 15)
  }
}
