import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What every command does with the database path it is given: regular SQLite files only,
/// never a write into a file a reader would refuse, clear codes for what is not there.
@Suite("Database files")
struct DatabaseFileTests {
  /// Every command that opens a database, as a function of the path (readers and writers).
  static let commands: [(name: String, arguments: @Sendable (String, String) -> [String])] = [
    ("sessions", { db, _ in ["sessions", "--db", db] }),
    ("errors", { db, _ in ["errors", "--db", db] }),
    ("latency", { db, _ in ["latency", "--db", db] }),
    ("flags", { db, _ in ["flags", "--db", db] }),
    ("check", { db, _ in ["check", "--db", db, "--max-error-rate", "5%"] }),
    ("report", { db, _ in ["report", "--db", db] }),
    ("export", { db, _ in ["export", "--db", db] }),
    ("migrate --status", { db, _ in ["migrate", "--status", "--db", db] }),
    ("migrate", { db, _ in ["migrate", "--db", db] }),
    ("demo", { db, _ in ["demo", "--fires", "5", "--db", db] }),
    ("enable --create", { db, _ in ["enable", "f", "--create", "--db", db] }),
    ("merge into", { db, good in ["merge", db, good] }),
    ("merge from", { db, _ in ["merge", db + ".out", db] }),
  ]

  static var commandNames: [String] { commands.map(\.name) }

  static func arguments(_ name: String, _ db: String, _ good: String) -> [String] {
    commands.first { $0.name == name }!.arguments(db, good)
  }

  @Test(
    "a FIFO, a device or a directory as the database is refused (65) at once, by every command",
    arguments: commandNames)
  func notRegularFiles(command: String) async throws {
    let directory = TemporaryDirectory()
    let good = try FixtureDatabase.standard()
    let fifo = directory.path("f.sqlite")
    try #require(mkfifo(fifo, 0o600) == 0)
    for path in [fifo, "/dev/zero", directory.path("")] {
      let (result, timedOut) = try await ChildProcess.run(
        ChildProcess.sleeveBinary, Self.arguments(command, path, good.path),
        timeout: WaitBounds.hang)
      #expect(!timedOut, "\(command) on \(path) hung")
      #expect(result.status == 65, "\(command) on \(path): \(result.output)")
      #expect(result.output.contains("not a regular file"), "\(result.output)")
      #expect(result.output.split(separator: "\n").count == 1)
    }
    var status = stat()
    #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
  }

  @Test(
    "a short or foreign file is refused (65) and left byte for byte as it was, by every command",
    arguments: commandNames)
  func shortAndForeignFiles(command: String) async throws {
    let directory = TemporaryDirectory()
    let good = try FixtureDatabase.standard()
    let contents: [[UInt8]] = [
      [0x78], Array("SQLite format 3".utf8), Array(repeating: 0x41, count: 50),
      Array(repeating: 0x00, count: 4_096),
    ]
    for (index, bytes) in contents.enumerated() {
      let path = directory.path("short-\(index).sqlite")
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      let result = await CLIRunner.run(Self.arguments(command, path, good.path))
      #expect(result.exit == 65, "\(command) on \(bytes.count) bytes: \(result.error)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
      #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }
  }

  @Test(
    "writers refuse what readers refuse: a file missing a table or a column stays unchanged",
    arguments: ["demo", "enable --create", "migrate", "merge into"])
  func writersRefuseDamagedFiles(command: String) async throws {
    let good = try FixtureDatabase.standard()
    for damage in ["DROP TABLE flag_events", "ALTER TABLE outcomes DROP COLUMN error_message"] {
      let damaged = try FixtureDatabase.standard()
      try damaged.connection.execute(damage)
      try damaged.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      let before = try Data(contentsOf: URL(fileURLWithPath: damaged.path))
      let result = await CLIRunner.run(Self.arguments(command, damaged.path, good.path))
      #expect(result.exit == 65, "\(command) after \(damage): \(result.error)")
      #expect(result.error.contains("is damaged"))
      #expect(result.error.contains("is missing"))
      try damaged.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: damaged.path)) == before)
    }
  }

  @Test(
    "a database's -wal, -shm or -journal is never opened, created or written as a database",
    arguments: commandNames)
  func companionFilesAreRefused(command: String) async throws {
    let good = try FixtureDatabase.standard()
    try good.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let before = try Data(contentsOf: URL(fileURLWithPath: good.path))
    for suffix in ["-wal", "-shm", "-journal"] {
      let companion = good.path + suffix
      let existed = FileManager.default.fileExists(atPath: companion)
      let result = await CLIRunner.run(Self.arguments(command, companion, good.path))
      #expect(result.exit == 65, "\(command) on \(suffix): \(result.error)")
      #expect(result.error.contains("belongs to the database"), "\(result.error)")
      #expect(FileManager.default.fileExists(atPath: companion) == existed)
    }
    try good.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: good.path)) == before)
    #expect(try good.connection.scalarInt("SELECT count(*) FROM outcomes") == 29)
  }

  @Test("readers call a dropped column damage (65), not an I/O error")
  func droppedColumnIsDamage() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute("ALTER TABLE outcomes DROP COLUMN duration_ns")
    for command in ["sessions", "errors", "latency", "flags", "export"] {
      let result = await CLIRunner.run([command, "--db", fixture.path])
      #expect(result.exit == 65, "\(command): \(result.error)")
      #expect(result.error.contains("column 'outcomes.duration_ns' is missing"))
    }
  }

  @Test("a zero-byte or table-less file holds no sessions yet (66); writers create in it")
  func emptyFiles() async throws {
    let directory = TemporaryDirectory()
    let empty = directory.path("empty.sqlite")
    #expect(FileManager.default.createFile(atPath: empty, contents: nil))
    let bare = directory.path("bare.sqlite")
    _ = try Connection(path: bare)  // a SQLite header, WAL mode, no tables: mid-creation
    for path in [empty, bare] {
      for command in ["sessions", "errors", "flags", "export", "check"] {
        let result = await CLIRunner.run(Self.arguments(command, path, ""))
        #expect(result.exit == 66, "\(command) on \(path): \(result.error)")
        #expect(result.error.contains("holds no sessions yet"))
      }
    }
    let recorded = await CLIRunner.run(["demo", "--fires", "5", "--db", empty])
    #expect(recorded.exit == 0)
    let listed = await CLIRunner.run(["sessions", "--db", empty])
    #expect(listed.exit == 0)
    #expect(listed.out.contains("Checkout screen (demo)"))
  }

  /// Runs `command` (a copy of the binary, maybe through setpriv), again when the exec failed
  /// with "Text file busy": another test thread's fork can hold the fresh copy's write handle
  /// for a moment (the classic fork/exec race), which says nothing about Sleeve.
  static func runCopiedBinary(_ command: [String], timeout: Duration = WaitBounds.hang)
    async throws -> ChildProcess.Result
  {
    var attempt = 0
    while true {
      attempt += 1
      do {
        let (result, timedOut) = try await ChildProcess.run(
          command[0], Array(command.dropFirst()), timeout: timeout)
        #expect(!timedOut)
        guard result.output.contains("Text file busy"), attempt < 20 else { return result }
      } catch let error as NSError
        where attempt < 20
        && (error.code == Int(ETXTBSY) || "\(error)".contains("Text file busy"))
      {
        // The spawn itself met the race: try again.
      }
      try await Task.sleep(for: .milliseconds(50))
    }
  }

  @Test(
    "a read-only CI artifact (file 0444 in a directory 0555, another user) is read, and says so")
  func readOnlyArtifact() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let artifacts = directory.path("artifacts")
    try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: false)
    let database = artifacts + "/sleeve.sqlite"
    // A copy of a recorded file: WAL mode, so reading it normally needs its -shm beside it.
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try FileManager.default.copyItem(atPath: fixture.path, toPath: database)
    let binary = directory.path("sleeve")
    try FileManager.default.copyItem(atPath: ChildProcess.sleeveBinary, toPath: binary)
    chmod(binary, 0o755)
    chmod(database, 0o444)
    chmod(artifacts, 0o555)
    chmod(directory.path(""), 0o755)
    defer { chmod(artifacts, 0o755) }
    // As root, permissions do not apply: run as nobody, as a CI job reading another's file.
    let asOtherUser = geteuid() == 0
    let command =
      asOtherUser
      ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", binary]
      : [binary]
    for query in [["sessions"], ["errors", "--session", "all"], ["flags"]] {
      let result = try await Self.runCopiedBinary(command + query + ["--db", database])
      #expect(result.status == 0, "\(query): \(result.output)")
      #expect(result.output.contains("reading it as an immutable snapshot"), "\(result.output)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: artifacts) == ["sleeve.sqlite"])
  }

  @Test("permission denied is named as such (66), never 'not found'")
  func permissionDenied() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let locked = directory.path("locked")
    try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
    try fixture.connection.execute("VACUUM INTO '\(locked)/sleeve.sqlite'")
    let binary = directory.path("sleeve")
    try FileManager.default.copyItem(atPath: ChildProcess.sleeveBinary, toPath: binary)
    chmod(binary, 0o755)
    chmod(directory.path(""), 0o755)
    chmod(locked, 0o000)
    defer { chmod(locked, 0o755) }
    let command =
      geteuid() == 0
      ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", binary]
      : [binary]
    let result = try await Self.runCopiedBinary(
      command + ["sessions", "--db", locked + "/sleeve.sqlite"])
    #expect(result.status == 66)
    #expect(result.output.contains("permission denied"), "\(result.output)")
    #expect(!result.output.contains("not found"))
  }

  @Test("merge names a missing input and creates nothing")
  func mergeMissingInput() async throws {
    let directory = TemporaryDirectory()
    let good = try FixtureDatabase.standard()
    let out = directory.path("all.sqlite")
    let missing = directory.path("runner-2.sqlite")
    let result = await CLIRunner.run(["merge", out, good.path, missing])
    #expect(result.exit == 66)
    #expect(result.error.contains("'\(missing)'"))
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  @Test(
    "every database a command creates is 0600 whatever the umask, with its -wal and -shm",
    arguments: ["demo", "enable --create", "migrate", "merge into"])
  func createdFilesArePrivate(command: String) async throws {
    let directory = TemporaryDirectory()
    let good = try FixtureDatabase.standard()
    let path = directory.path("new.sqlite")
    let previous = umask(0o022)
    defer { umask(previous) }
    let result = await CLIRunner.run(Self.arguments(command, path, good.path))
    #expect(result.exit == 0, "\(result.error)")
    let reader = try SleeveDatabase.openForReading(path: path)  // keeps -wal and -shm present
    for file in [path, path + "-wal", path + "-shm"] {
      let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
      #expect(mode == 0o600, "\(file)")
    }
    _ = reader
  }

  @Test("a database reached through a link to a missing file is never created (66)")
  func danglingLinkDatabase() async throws {
    let directory = TemporaryDirectory()
    let link = directory.path("rec.sqlite")
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: directory.path("elsewhere.sqlite"))
    for command in ["demo", "enable --create", "migrate", "merge into", "sessions"] {
      let result = await CLIRunner.run(Self.arguments(command, link, link))
      #expect(result.exit == 66, "\(command): \(result.error)")
      #expect(result.error.contains("symbolic link to a file that does not exist"))
    }
    #expect(!FileManager.default.fileExists(atPath: directory.path("elsewhere.sqlite")))
  }

  @Test(
    "a full standard output is exit 74 with one line, for every command that prints",
    arguments: [
      ["sessions", "--db", "DB"], ["errors", "--format", "json", "--db", "DB"],
      ["latency", "--db", "DB"], ["flags", "--db", "DB"],
      ["check", "--max-error-rate", "50%", "--db", "DB"], ["report", "--db", "DB"],
      ["migrate", "--status", "--db", "DB"], ["--version"], ["help"],
      ["export", "--format", "csv", "--session", "all", "--db", "DB"],
      ["report", "--format", "html", "--db", "DB"], ["completions", "bash"],
    ])
  func fullStandardOutput(arguments: [String]) async throws {
    let fixture = try FixtureDatabase.standard()
    let result = try await ChildProcess.run(
      ChildProcess.sleeveBinary, arguments.map { $0 == "DB" ? fixture.path : $0 },
      standardOutput: FileHandle(forWritingAtPath: "/dev/full"))
    #expect(result.status == 74, "\(arguments): \(result.output)")
    #expect(result.output.hasPrefix("Error: cannot write"), "\(result.output)")
    #expect(result.output.contains("standard output"))
    #expect(result.output.split(separator: "\n").count == 1)
  }

  @Test("check and report refuse (65) a file whose pages are damaged, before deciding")
  func damagedPagesStopTheGate() async throws {
    let fixture = try FixtureDatabase.standard()
    let clean = await CLIRunner.run(["check", "--db", fixture.path, "--max-error-rate", "50%"])
    try #require([0, 1, 2].contains(clean.exit), "\(clean.error)")
    // Damage the page of the sessions' UUID index: no query reads it, so only a check of the
    // file's structure notices.
    try fixture.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let root = try #require(
      try fixture.connection.scalarInt(
        "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_sessions_1'"))
    let pageSize = try #require(try fixture.connection.scalarInt("PRAGMA page_size"))
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: fixture.path))
    try handle.seek(toOffset: UInt64((root - 1) * pageSize + 8))
    try handle.write(contentsOf: Data(repeating: 0xFF, count: 64))
    try handle.close()
    let sessions = await CLIRunner.run(["sessions", "--db", fixture.path])
    try #require(sessions.exit == 0, "the damage must be one only a structure check sees")
    for command in [["check", "--max-error-rate", "50%"], ["report"]] {
      let result = await CLIRunner.run(command + ["--db", fixture.path])
      #expect(result.exit == 65, "\(command): \(result.error)")
      #expect(result.error.contains("integrity check failed"), "\(result.error)")
    }
  }
}
