import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

/// What the shared-history tests share: a database of their own on the test server, the
/// `sleeve` binary run against it, and a file recorded by `sleeve demo`.
struct HistoryServer {
  /// The server (the process's shared one, or a private one).
  let server: TestPostgres.Server
  /// The administrator's URL of this test's own database.
  let url: String
  /// The database's name.
  var database: String { String(url.split(separator: "/").last ?? "") }

  /// A fresh database on the shared server, migrated when `migrated`.
  static func fresh(migrated: Bool = true, on server: TestPostgres.Server? = nil) async throws
    -> HistoryServer
  {
    let server = try server ?? TestPostgres.shared()
    let history = HistoryServer(server: server, url: try server.freshDatabase())
    if migrated {
      let result = try await sleeve(["migrate", "--db", history.url])
      try #require(result.status == 0, "\(result.output)")
    }
    return history
  }

  /// Runs `sleeve` with `arguments`, killed after 4 minutes (`WaitBounds.hang`).
  static func sleeve(_ arguments: [String]) async throws -> ChildProcess.Result {
    let (result, timedOut) = try await ChildProcess.run(
      ChildProcess.sleeveBinary, arguments, timeout: WaitBounds.hang)
    try #require(!timedOut, "sleeve \(arguments.first ?? "") did not end")
    return result
  }

  /// Runs `sleeve` with standard output alone captured (standard error apart), for
  /// comparisons of answers.
  static func answer(_ arguments: [String]) async throws -> (status: Int32, out: String) {
    let directory = TemporaryDirectory()
    let path = directory.path("out")
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    let result = try await ChildProcess.run(
      ChildProcess.sleeveBinary, arguments, standardOutput: handle)
    try handle.close()
    return (result.status, try String(contentsOfFile: path, encoding: .utf8))
  }

  /// `sleeve demo --history` into `path`: nine ended sessions, eight on main and one on a
  /// branch.
  static func demoHistory(at path: String) async throws {
    let result = try await sleeve(["demo", "--history", "--db", path])
    try #require(result.status == 0, "\(result.output)")
  }

  /// A demo history (`sleeve demo --history`) recorded into a file of a fresh directory,
  /// published into a fresh history, with the file the history's answers must equal (merged
  /// and pruned) beside it.
  struct PublishedDemo {
    /// The directory (removed when the value is released).
    let directory: TemporaryDirectory
    /// The recorded file.
    let file: String
    /// The file merged and pruned.
    let reference: String
    /// The history it was published into.
    let history: HistoryServer
  }

  /// A ``PublishedDemo``.
  static func publishedDemo() async throws -> PublishedDemo {
    let directory = TemporaryDirectory()
    let file = directory.path("runs.sqlite")
    try await demoHistory(at: file)
    let reference = directory.path("reference.sqlite")
    try await mergedAndPruned([file], at: reference)
    let history = try await fresh()
    try await history.publish(file)
    return PublishedDemo(directory: directory, file: file, reference: reference, history: history)
  }

  /// The file a history's answers must equal: `sources` merged into `path`, then pruned
  /// (`prune --keep-last 0`).
  static func mergedAndPruned(_ sources: [String], at path: String) async throws {
    let merged = try await sleeve(["merge", path] + sources)
    try #require(merged.status == 0, "\(merged.output)")
    let pruned = try await sleeve(["prune", "--db", path, "--keep-last", "0"])
    try #require(pruned.status == 0, "\(pruned.output)")
  }

  /// `sleeve publish` of `file` to this history, required to succeed.
  func publish(_ file: String) async throws {
    let published = try await Self.sleeve(["publish", "--db", file, "--to", url])
    try #require(published.status == 0, "\(published.output)")
  }

  /// A psql process holding `table` in ACCESS EXCLUSIVE mode (for 200 s, or until killed),
  /// returned once the lock is granted: a `sleeve` that reads or writes the table then waits
  /// on it mid-command.
  func holdLock(on table: String) async throws -> Process {
    let holder = Process()
    holder.executableURL = URL(fileURLWithPath: try #require(Proofs.executable("psql")))
    holder.arguments = [
      "-X", "-q", "-d", url, "-c",
      "BEGIN; LOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(200); COMMIT;",
    ]
    holder.standardOutput = FileHandle.nullDevice
    holder.standardError = FileHandle.nullDevice
    try holder.run()
    try await waitUntil("the lock on \(table) was never granted") {
      try count(
        "SELECT count(*) FROM pg_locks l JOIN pg_class c ON c.oid = l.relation "
          + "WHERE c.relname = '\(table)' AND l.mode = 'AccessExclusiveLock' AND l.granted") > 0
    }
    return holder
  }

  /// `sleeve sessions --db` this history, started with `environment` added to the test's and
  /// standard error into `errors`, returned (with the lock's holder) once it waits on a lock
  /// held on `summary_checksums`, which it reads while it copies the heads.
  func blockedReader(environment added: [String: String], errors: Pipe? = nil) async throws
    -> (holder: Process, reader: Process)
  {
    let holder = try await holdLock(on: "summary_checksums")
    let reader = Process()
    reader.executableURL = URL(fileURLWithPath: ChildProcess.sleeveBinary)
    reader.arguments = ["sessions", "--db", url]
    reader.environment = ProcessInfo.processInfo.environment.merging(added) { $1 }
    reader.standardOutput = FileHandle.nullDevice
    reader.standardError = errors ?? FileHandle.nullDevice
    try reader.run()
    try await waitUntilSleeveWaits()
    return (holder, reader)
  }

  /// The `sleeve` connections to this test's database that wait on a lock, as a `FROM …
  /// WHERE …` clause. The server is shared by every test of the process, so without the
  /// database another test's waiting reader would be taken for this one's (under load they
  /// overlap).
  static let sleeveWaitingOnALock =
    "FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND application_name = 'sleeve' "
    + "AND datname = current_database()"

  /// Returns once a `sleeve` connection to this test's database waits on a lock.
  func waitUntilSleeveWaits() async throws {
    try await waitUntil("no sleeve connection ever waited on the lock") {
      try count("SELECT count(*) " + Self.sleeveWaitingOnALock) > 0
    }
  }

  /// Polls `condition` every 20 ms, at most `WaitBounds.hang`.
  private func waitUntil(_ failure: String, _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + WaitBounds.hang
    while try !condition() {
      try #require(ContinuousClock.now < deadline, "\(failure)")
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  /// Runs `sql` in this test's database as the administrator (psql, tuples only).
  @discardableResult
  func psql(_ sql: String) throws -> String { try server.psql(sql, database: database) }

  /// A number the administrator's query returns.
  func count(_ sql: String) throws -> Int {
    try #require(Int(psql(sql).trimmingCharacters(in: .whitespacesAndNewlines)), "\(sql)")
  }

  /// What each session holds in the history, by UUID: its rows per table.
  func shapes() throws -> [String: [Int]] {
    let lines = try psql(Self.shapeQuery(shift: "<<", sessionsTable: "sessions"))
    return Self.parseShapes(lines)
  }

  /// What each session of the Sleeve file at `path` holds, as ``shapes()`` counts it.
  static func shapes(ofFile path: String) throws -> [String: [Int]] {
    let connection = try Connection(path: path, mode: .readOnly)
    let statement = try connection.prepare(shapeQuery(shift: "<<", sessionsTable: "sessions"))
    var lines = ""
    while try statement.step() { lines += (statement.text(at: 0) ?? "") + "\n" }
    return parseShapes(lines)
  }

  /// One line per session: its UUID and its row count in each table a history holds, `|`
  /// separated (SQL both PostgreSQL and SQLite run).
  private static func shapeQuery(shift: String, sessionsTable: String) -> String {
    let range = { (column: String) in
      "\(column) BETWEEN (s.id \(shift) 32) AND (s.id \(shift) 32) + 4294967295"
    }
    let counts = [
      "SELECT count(*) FROM session_context t WHERE t.session_id = s.id",
      "SELECT count(*) FROM session_summaries t WHERE t.session_id = s.id",
      "SELECT count(*) FROM summary_checksums t WHERE t.session_id = s.id",
      "SELECT count(*) FROM controls t WHERE \(range("t.id"))",
      "SELECT count(*) FROM registrations t WHERE \(range("t.id"))",
      "SELECT count(*) FROM outcome_summaries t WHERE \(range("t.registration_id"))",
      "SELECT count(*) FROM failure_summaries t WHERE \(range("t.registration_id"))",
      "SELECT count(*) FROM flags t WHERE t.session_id = s.id",
      "SELECT count(*) FROM flag_events t WHERE t.session_id = s.id",
    ]
    return "SELECT lower(s.uuid) || '|' || "
      + counts.map { "(\($0))" }.joined(separator: " || '|' || ")
      + " FROM \(sessionsTable) s ORDER BY s.id"
  }

  private static func parseShapes(_ lines: String) -> [String: [Int]] {
    var shapes: [String: [Int]] = [:]
    for line in lines.split(separator: "\n") where !line.isEmpty {
      let fields = line.split(separator: "|", omittingEmptySubsequences: false)
      shapes[String(fields[0])] = fields.dropFirst().map { Int($0) ?? -1 }
    }
    return shapes
  }
}
