import Foundation
import SleeveCore
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Every command answers from one read transaction: a recorder that starts a session between
/// two reads can never make the header name one session and the numbers come from another.
@Suite("One snapshot per answer")
struct SnapshotTests {
  /// Adds session `id` (`name` "run-ID") with `id + 1` ok outcomes of one handler, the way a
  /// recorder in another process would: its own connection, its own transaction.
  static func addSession(_ id: Int64, to path: String) throws {
    let connection = try Connection(path: path, mode: .readWrite)
    guard let base = RowID.range(of: id)?.lowerBound else { return }
    try connection.transaction {
      try connection.execute(
        """
        INSERT INTO sessions (id, uuid, name, started_unix_ns, ended_unix_ns, heartbeat_unix_ns,
          status, durability, host, pid, os, runtime, sleeve_version, sqlite_version)
        VALUES (\(id), '00000000-0000-0000-0000-\(String(format: "%012d", id))', 'run-\(id)',
          \(1_800_000_000_000_000_000 + id), \(1_800_000_000_000_000_001 + id),
          \(1_800_000_000_000_000_000 + id), 'ended', 'batched', 'h', 1, 'os', 'rt', 'v', 'v');
        INSERT INTO controls (id, session_id, name, kind) VALUES (\(base + 1), \(id), 'b', 'Button');
        INSERT INTO registrations (id, session_id, control_id, events, kind, handler, flag_key,
          is_async, site, registered_at_ns) VALUES (\(base + 1), \(id), \(base + 1), 64,
          'closure', 'tap', 'f', 0, 'S.swift:1', 0);
        """)
      for number in 1...(id + 1) {
        try connection.execute(
          """
          INSERT INTO fires (id, control_id, events, origin, depth, at_ns)
            VALUES (\(base + number), \(base + 1), 64, 0, 1, \(number));
          INSERT INTO outcomes (id, fire_id, registration_id, status, variant, flag_state,
            is_async, started_ns, duration_ns)
            VALUES (\(base + number), \(base + number), \(base + 1), 0, 1, 1, 0, 0, 5);
          """)
      }
    }
  }

  /// Runs `arguments` while a new session is added before every read transaction begins.
  static func runWhileRecording(_ arguments: [String], fixture: FixtureDatabase) async
    -> CLIRunner.Result
  {
    let next = Locked<Int64>(3)
    let path = fixture.path
    return await QueryDatabase.$beforeEachSnapshot.withValue({
      let id = next.withLock { value -> Int64 in
        defer { value += 1 }
        return value
      }
      try? SnapshotTests.addSession(id, to: path)
    }) {
      await CLIRunner.run(arguments + ["--db", path, "--format", "json"])
    }
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(
      JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
  }

  @Test(
    "the sessions a report names are the sessions its numbers come from",
    arguments: [["errors"], ["latency"], ["check", "--max-error-rate", "50%"], ["flags"]])
  func headerAndNumbersAgree(command: [String]) async throws {
    let fixture = try FixtureDatabase.standard()
    let result = await Self.runWhileRecording(command, fixture: fixture)
    #expect([0, 1, 2].contains(result.exit), "\(result.error)")
    let answer = try Self.json(result.out)
    let sessions = try #require(answer["sessions"] as? [Int])
    #expect(sessions.count == 1)
    let session = try #require(sessions.first)
    // Session k holds k + 1 outcomes: the numbers say which session was read.
    let counted: Int
    if command[0] == "flags" {
      let flags = try #require(answer["flags"] as? [[String: Any]])
      let on = try #require(flags.first { $0["key"] as? String == "f" }?["on"] as? [String: Any])
      counted = try #require(on["n"] as? Int)
    } else if command[0] == "check" {
      let checks = try #require(answer["checks"] as? [[String: Any]])
      counted = try #require(checks.first?["n"] as? Int)
    } else {
      let groups = try #require(answer["groups"] as? [[String: Any]])
      counted = try #require(groups.first?["n"] as? Int)
    }
    #expect(counted == session + 1, "header names session \(session), numbers count \(counted)")
  }
}
