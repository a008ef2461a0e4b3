import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@Suite("Connection")
struct ConnectionTests {
  @Test("setup turns on WAL, synchronous=NORMAL and foreign keys")
  func setupTurnsOnWALAndForeignKeys() throws {
    let directory = TemporaryDirectory()
    let connection = try Connection(path: directory.path("db.sqlite"))
    #expect(try connection.scalarText("PRAGMA journal_mode") == "wal")
    #expect(try connection.scalarInt("PRAGMA synchronous") == 1)
    #expect(try connection.scalarInt("PRAGMA foreign_keys") == 1)
  }

  @Test("an error carries the extended code, SQLite's message and the SQL, never bound values")
  func errorCarriesCodeMessageAndSQL() throws {
    let directory = TemporaryDirectory()
    let connection = try Connection(path: directory.path("db.sqlite"))
    try connection.execute("CREATE TABLE t (name TEXT NOT NULL UNIQUE)")
    let insert = try connection.prepare("INSERT INTO t (name) VALUES (?)")
    try insert.bind("secret-value", at: 1)
    try insert.run()
    let error = try #require(throws: SQLiteError.self) { try insert.run() }
    #expect(error.code == 2067)  // SQLITE_CONSTRAINT_UNIQUE
    #expect(error.primaryCode == SQLiteError.constraint)
    #expect(
      error.description
        == "SQLite error 2067: UNIQUE constraint failed: t.name - while executing "
        + "'INSERT INTO t (name) VALUES (?)'")
    #expect(!error.description.contains("secret-value"))
  }

  @Test("bound text keeps every byte: a U+0000 inside, an empty string, 4-byte scalars")
  func boundTextKeepsEveryByte() throws {
    let directory = TemporaryDirectory()
    let connection = try Connection(path: directory.path("db.sqlite"))
    try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
    let values = ["checkout\u{0}.pay", "checkout\u{0}.cancel", "", "\u{0}", "a\u{1F600}b"]
    let insert = try connection.prepare("INSERT INTO t (name) VALUES (?)")
    for value in values {
      try insert.bind(value, at: 1)
      try insert.run()
      insert.reset()
    }
    let select = try connection.prepare("SELECT name, hex(name) FROM t ORDER BY id")
    var read: [String] = []
    var hex: [String] = []
    while try select.step() {
      read.append(try #require(select.text(at: 0)))
      hex.append(try #require(select.text(at: 1)))
    }
    #expect(read == values)
    #expect(
      hex == [
        "636865636B6F7574002E706179", "636865636B6F7574002E63616E63656C", "", "00", "61F09F988062",
      ])
    #expect(try connection.scalarInt("SELECT count(DISTINCT name) FROM t") == 5)
  }

  @Test("multi-statement SQL names the statement that failed")
  func multiStatementErrorNamesTheStatement() throws {
    let directory = TemporaryDirectory()
    let connection = try Connection(path: directory.path("db.sqlite"))
    let error = try #require(throws: SQLiteError.self) {
      try connection.execute(
        "CREATE TABLE a (x); INSERT INTO missing VALUES (1); CREATE TABLE b (y);")
    }
    #expect(error.sql == "INSERT INTO missing VALUES (1);")
    #expect(try connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'b'") == 0)
  }

  @Test("a transaction commits on return and rolls back on throw")
  func transactionCommitsOrRollsBack() throws {
    let directory = TemporaryDirectory()
    let connection = try Connection(path: directory.path("db.sqlite"))
    try connection.execute("CREATE TABLE t (x INTEGER)")
    try connection.transaction { try connection.execute("INSERT INTO t VALUES (1)") }
    struct Abort: Error {}
    #expect(throws: Abort.self) {
      try connection.transaction {
        try connection.execute("INSERT INTO t VALUES (2)")
        throw Abort()
      }
    }
    #expect(try connection.scalarInt("SELECT group_concat(x) FROM t") == 1)
    #expect(connection.isAutocommit)
  }

  @Test("a lock held past the busy timeout surfaces as SQLiteError.busy")
  func lockPastTimeoutIsBusy() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("db.sqlite")
    let holder = try Connection(path: path)
    try holder.execute("CREATE TABLE t (x)")
    let waiter = try Connection(path: path, busyTimeout: .milliseconds(50))
    try holder.execute("BEGIN IMMEDIATE")
    var matched = false
    do {
      try waiter.execute("BEGIN IMMEDIATE")
    } catch SQLiteError.busy {
      matched = true
    }
    try holder.execute("ROLLBACK")
    #expect(matched)
  }

  @Test("text that is not valid UTF-8 reads back repaired, without a trap")
  func invalidUTF8ReadsBackRepaired() throws {
    let directory = TemporaryDirectory()
    let connection = try Connection(path: directory.path("db.sqlite"))
    let text = try connection.scalarText("SELECT CAST(x'61ff62' AS TEXT)")
    #expect(text == "a\u{FFFD}b")
  }

  @Test("a missing file opened read-only fails with cantOpen")
  func missingFileReadOnlyFails() throws {
    let directory = TemporaryDirectory()
    #expect {
      try Connection(path: directory.path("missing.sqlite"), mode: .readOnly)
    } throws: { error in
      SQLiteError.cantOpen ~= error
    }
  }
}
