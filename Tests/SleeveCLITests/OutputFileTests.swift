import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `--out` (report and export): what may be written where. Regular files appear whole and
/// 0600; devices and FIFOs are written, never replaced; links are followed; databases, their
/// `-wal`/`-shm` and SQLite files are never written over; a kill leaves nothing behind.
@Suite("--out files")
struct OutputFileTests {
  /// The commands that write `--out`, with arguments that make them write something.
  static let writers: [[String]] = [
    ["report", "--format", "html"], ["report", "--format", "markdown"],
    ["export", "--format", "csv", "--session", "all"],
  ]

  @Test(
    "no command writes over its database, its -wal or -shm, or another SQLite file",
    arguments: writers)
  func neverOverADatabase(command: [String]) async throws {
    let fixture = try FixtureDatabase.standard()
    let other = try FixtureDatabase.standard()
    // Keep the fixture's -wal and -shm in place: a second connection holds them open.
    let reader = try SleeveDatabase.openForReading(path: fixture.path)
    try #require(FileManager.default.fileExists(atPath: fixture.path + "-wal"))
    let walCopy = fixture.path + ".wal-copy"
    try FileManager.default.copyItem(atPath: fixture.path + "-wal", toPath: walCopy)
    for target in [
      fixture.path, fixture.path + "-wal", fixture.path + "-shm", other.path, walCopy,
    ] {
      let before = try Data(contentsOf: URL(fileURLWithPath: target))
      let result = await CLIRunner.run(command + ["--db", fixture.path, "--out", target])
      #expect(result.exit == 64, "\(command) --out \(target)")
      #expect(result.error.hasPrefix("Error: refusing to write '\(target)'"))
      #expect(result.error.split(separator: "\n").count == 1)
      if target != fixture.path + "-shm" && target != fixture.path + "-wal" {
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == before, "\(target)")
      }
    }
    #expect(try reader.scalarInt("SELECT count(*) FROM outcomes") == 29)
  }

  @Test("--out naming a database's -wal, -shm or -journal is refused, present or not")
  func companionPathsAreRefused() async throws {
    let fixture = try FixtureDatabase.standard()
    let other = try FixtureDatabase.standard()
    try other.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for suffix in ["-wal", "-shm", "-journal"] {
      let target = other.path + suffix
      let existed = FileManager.default.fileExists(atPath: target)
      let result = await CLIRunner.run(["report", "--db", fixture.path, "--out", target])
      #expect(result.exit == 64, "\(suffix): \(result.error)")
      #expect(result.error.contains("belongs to the database"))
      #expect(FileManager.default.fileExists(atPath: target) == existed)
    }
  }

  @Test("/dev/null stays a device and /dev/stdout reaches standard output")
  func devices() async throws {
    let fixture = try FixtureDatabase.standard()
    let null = try await ChildProcess.run(
      ChildProcess.sleeveBinary, ["report", "--db", fixture.path, "--out", "/dev/null"])
    #expect(null.status == 0, "\(null.output)")
    var status = stat()
    #expect(stat("/dev/null", &status) == 0)
    #expect(status.st_mode & S_IFMT == S_IFCHR)
    let stdout = try await ChildProcess.run(
      ChildProcess.sleeveBinary,
      ["report", "--db", fixture.path, "--format", "json", "--out", "/dev/stdout"])
    #expect(stdout.status == 0)
    #expect(stdout.output.contains("\"decision\""))
  }

  @Test("a FIFO is written through, and one nobody reads is refused at once")
  func fifo() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let fifo = directory.path("pipe")
    try #require(mkfifo(fifo, 0o600) == 0)
    let lonely = try await ChildProcess.run(
      ChildProcess.sleeveBinary, ["report", "--db", fixture.path, "--out", fifo],
      timeout: WaitBounds.hang)
    #expect(!lonely.timedOut)
    #expect(lonely.result.status == 74)
    #expect(lonely.result.output.contains("no process is reading"))

    let reader = open(fifo, O_RDONLY | O_NONBLOCK)
    try #require(reader >= 0)
    defer { close(reader) }
    let result = await CLIRunner.run(
      ["report", "--db", fixture.path, "--format", "json", "--out", fifo])
    #expect(result.exit == 0)
    var bytes = [UInt8](repeating: 0, count: 1 << 16)
    let count = read(reader, &bytes, bytes.count)
    #expect(String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self).contains("\"decision\""))
    var status = stat()
    #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
  }

  @Test("a link is followed (its target replaced, the link kept); a dangling link is refused")
  func links() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let target = directory.path("target.md")
    let link = directory.path("link.md")
    try "old".write(toFile: target, atomically: false, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
    let result = await CLIRunner.run(["report", "--db", fixture.path, "--out", link])
    #expect(result.exit == 0)
    #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("# Rollout report"))
    #expect(
      try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)

    let dangling = directory.path("dangling.md")
    try FileManager.default.createSymbolicLink(
      atPath: dangling, withDestinationPath: directory.path("nowhere.md"))
    let refused = await CLIRunner.run(["report", "--db", fixture.path, "--out", dangling])
    #expect(refused.exit == 64)
    #expect(refused.error.contains("symbolic link to a file that does not exist"))
    #expect(!FileManager.default.fileExists(atPath: directory.path("nowhere.md")))

    let folder = await CLIRunner.run(["report", "--db", fixture.path, "--out", directory.path("")])
    #expect(folder.exit == 64)
    #expect(folder.error.contains("it is a directory"))
  }

  @Test("files --out creates are mode 0600 whatever the umask", arguments: writers)
  func privateMode(command: [String]) async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let out = directory.path("out")
    let result = await CLIRunner.run(command + ["--db", fixture.path, "--out", out])
    #expect(result.exit == 0)
    let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")) == ["out"])
  }

  @Test(
    "an export killed mid-write (SIGKILL or SIGTERM) leaves nothing in the directory",
    arguments: [SIGKILL, SIGTERM])
  func killedExport(signal: Int32) async throws {
    let fixture = try Self.bigFixture()
    let directory = TemporaryDirectory()
    let out = directory.path("big.csv")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ChildProcess.sleeveBinary)
    process.arguments = ["export", "--db", fixture.path, "--format", "csv", "--out", out]
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Watched every millisecond, and killed the moment it writes, on a thread of its own: a
    // poll that waited for a busy cooperative pool to resume it could miss the whole export.
    let (child, watched) = (process.processIdentifier, directory.path(""))
    let writing = try await OffThePool.run {
      let writing = try Self.waitUntilWriting(child, into: watched)
      if writing { kill(child, signal) }
      return writing
    }
    try #require(writing, "the export finished before it could be interrupted")
    await process.exited()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == signal)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path("")).isEmpty)
  }

  @Test("partial files of processes that are gone are removed by the next write; live ones stay")
  func stalePartials() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let gone = try Self.deadProcessID()
    let stale = directory.path("out.csv.partial-\(gone)")
    let live = directory.path("out.csv.partial-\(getppid())")
    let unrelated = directory.path("notes.partial-\(gone)")
    for path in [stale, live, unrelated] {
      try "x".write(toFile: path, atomically: false, encoding: .utf8)
    }
    let result = await CLIRunner.run([
      "export", "--db", fixture.path, "--format", "csv", "--out", directory.path("out.csv"),
    ])
    #expect(result.exit == 0)
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path("")))
    #expect(names == ["out.csv", "out.csv.partial-\(getppid())", "notes.partial-\(gone)"])
  }

  /// A session of 400,000 invocations: big enough that an export is caught mid-write.
  static func bigFixture() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "big")
    try fixture.handler(session: 1, number: 1, name: "tap", control: "button")
    let base = try #require(RowID.range(of: 1)).lowerBound
    try fixture.connection.execute(
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400000)
      INSERT INTO fires (id, control_id, events, origin, depth, at_ns)
      SELECT \(base) + 1000 + i, \(base + 1), 64, 0, 1, i FROM n;
      INSERT INTO outcomes (id, fire_id, registration_id, status, is_async, started_ns,
        duration_ns)
      SELECT id - 1000, id, \(base + 1), 0, 0, at_ns, 5 FROM fires WHERE id > \(base + 1000);
      """)
    return fixture
  }

  /// The id of a process that has exited (and been reaped).
  static func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitForExit()
    return process.processIdentifier
  }

  /// Waits until `process` has a file open in `directory` with bytes in it (its unnamed
  /// temporary file, or a named partial one), looking every millisecond. Blocks its thread:
  /// call it through `OffThePool`.
  static func waitUntilWriting(_ process: Int32, into directory: String) throws -> Bool {
    let started = ContinuousClock.now
    let descriptors = "/proc/\(process)/fd"
    while ContinuousClock.now - started < .seconds(60) {
      for name in (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? [] {
        let path = descriptors + "/" + name
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path),
          target.hasPrefix(directory)
        else { continue }
        var status = stat()
        if stat(path, &status) == 0, status.st_size > 0 { return true }
      }
      guard kill(process, 0) == 0 else { return false }
      usleep(1_000)
    }
    return false
  }
}
