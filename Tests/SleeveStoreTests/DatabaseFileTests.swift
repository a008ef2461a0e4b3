import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `DatabaseFile`: what a path holds, decided before SQLite opens it.
@Suite("DatabaseFile")
struct DatabaseFileTests {
  @Test("inspect tells missing, empty and SQLite files apart, and refuses everything else")
  func inspect() throws {
    let directory = TemporaryDirectory()
    #expect(try DatabaseFile.inspect(directory.path("none")) == .missing)
    let empty = directory.path("empty")
    #expect(FileManager.default.createFile(atPath: empty, contents: nil))
    #expect(try DatabaseFile.inspect(empty) == .empty)
    let database = directory.path("db.sqlite")
    _ = try SleeveDatabase.openForWriting(path: database)
    #expect(try DatabaseFile.inspect(database) == .sqlite)
    let link = directory.path("link.sqlite")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: database)
    #expect(try DatabaseFile.inspect(link) == .sqlite)

    let short = directory.path("short")
    try Data([0x53, 0x51]).write(to: URL(fileURLWithPath: short))
    #expect(
      throws: StoreError.notADatabase(
        path: short, detail: "only 2 bytes, shorter than a SQLite header")
    ) {
      try DatabaseFile.inspect(short)
    }
    let fifo = directory.path("fifo")
    #expect(mkfifo(fifo, 0o600) == 0)
    #expect(throws: StoreError.notARegularFile(path: fifo, kind: "a FIFO")) {
      try DatabaseFile.inspect(fifo)
    }
    #expect(throws: StoreError.notARegularFile(path: "/dev/null", kind: "a character device")) {
      try DatabaseFile.inspect("/dev/null")
    }
    let dangling = directory.path("dangling")
    try FileManager.default.createSymbolicLink(
      atPath: dangling, withDestinationPath: "/nonexistent/x")
    #expect(throws: StoreError.danglingLink(path: dangling)) { try DatabaseFile.inspect(dangling) }
  }

  @Test("createIfMissing makes an exact 0600 file, never through a link, never over a file")
  func create() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("new.sqlite")
    let previous = umask(0o077 & ~0o077)
    defer { umask(previous) }
    try DatabaseFile.createIfMissing(path)
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
    try DatabaseFile.createIfMissing(path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data([1, 2, 3]))
    let link = directory.path("link")
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: directory.path("target"))
    #expect(throws: StoreError.danglingLink(path: link)) { try DatabaseFile.createIfMissing(link) }
    #expect(!FileManager.default.fileExists(atPath: directory.path("target")))
  }

  @Test("an immutable read of a path with URI characters reads that file, with no parameters added")
  func immutablePathIsEscaped() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("a?mode=rwc&immutable=0#b %25.sqlite")
    let writer = try SleeveDatabase.openForWriting(path: path)
    try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    let reader = try Connection(path: path, mode: .readOnlyImmutable)
    #expect(try reader.scalarInt("SELECT count(*) FROM schema_migrations") ?? 0 >= 1)
    #expect(throws: SQLiteError.self) { try reader.execute("CREATE TABLE x (y)") }
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path("")).sorted() == [
        "a?mode=rwc&immutable=0#b %25.sqlite", "a?mode=rwc&immutable=0#b %25.sqlite-shm",
        "a?mode=rwc&immutable=0#b %25.sqlite-wal",
      ])
  }

  @Test("SQLite's files are recognised by their first bytes, whatever their names")
  func sqliteFileKinds() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("plain")
    let connection = try SleeveDatabase.openForWriting(path: path)
    try connection.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
    #expect(SQLiteFileKind.of(path) == "SQLite database")
    #expect(SQLiteFileKind.of(path + "-wal") == "SQLite write-ahead log")
    #expect(SQLiteFileKind.of(path + "-shm") == "SQLite shared-memory index")
    let text = directory.path("notes.txt")
    try "SQLite is nice".write(toFile: text, atomically: false, encoding: .utf8)
    #expect(SQLiteFileKind.of(text) == nil)
    #expect(SQLiteFileKind.of("/dev/null") == nil)
  }
}
