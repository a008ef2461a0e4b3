import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@Suite("Reading a file that lacks an add-only migration")
struct PendingTableShapeTests {
  @Test("a foreign table named as a pending migration's is refused as damaged, not queried")
  func foreignTableIsDamaged() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("0002-foreign.sqlite")
    try OlderDatabase.create(at: path)
    do {
      let connection = try Connection(path: path)
      try connection.execute(
        "CREATE TABLE session_context (session_id INTEGER PRIMARY KEY, branch TEXT)")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect {
      _ = try SleeveDatabase.openForReading(path: path)
    } throws: { error in
      guard case StoreError.corrupt(_, let detail) = error else { return false }
      return detail.contains("session_context.attempt")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("a pending migration's table already there with every column reads as it is")
  func completeTableIsRead() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("0002-complete.sqlite")
    try OlderDatabase.create(at: path)
    do {
      let connection = try Connection(path: path)
      try Migrator.migrate(connection, migrations: SchemaMigrations.all)
      try connection.execute("DELETE FROM schema_migrations WHERE id = '0003_run_context'")
    }
    let connection = try SleeveDatabase.openForReading(path: path)
    let statement = try connection.prepare("SELECT count(*) FROM session_context")
    #expect(try statement.step())
  }
}
