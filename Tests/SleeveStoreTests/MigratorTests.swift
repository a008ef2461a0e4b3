import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@Suite("Migrations")
struct MigratorTests {
  static let migrationsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Migrations")

  @Test("the embedded registry equals the Migrations folder, in order and byte for byte")
  func registryEqualsTheFolder() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.migrationsFolder.path)
      .filter { $0.hasSuffix(".sql") }.sorted()
    #expect(SchemaMigrations.all.map { $0.id + ".sql" } == files)
    for migration in SchemaMigrations.all {
      let text = try String(
        contentsOf: Self.migrationsFolder.appendingPathComponent(migration.id + ".sql"),
        encoding: .utf8)
      #expect(migration.sql == text, "\(migration.id) differs from its file")
    }
  }

  @Test("a new file is migrated and re-opening applies nothing")
  func migrationIsIdempotentOnReopen() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("db.sqlite")
    let first = try Connection(path: path)
    #expect(try Migrator.migrate(first) == SchemaMigrations.all.map(\.id))
    let second = try Connection(path: path)
    #expect(try Migrator.migrate(second).isEmpty)
    let state = try Migrator.state(of: second)
    #expect(state.pending.isEmpty)
    #expect(state.applied == SchemaMigrations.all.map(\.id))
    #expect(
      try second.scalarInt("SELECT count(*) FROM schema_migrations")
        == Int64(SchemaMigrations.all.count))
  }

  @Test("a failing migration leaves nothing of the pending migrations behind: all or none")
  func failingMigrationIsAtomic() throws {
    let directory = TemporaryDirectory()
    let connection = try Connection(path: directory.path("db.sqlite"))
    let broken =
      SchemaMigrations.all + [
        Migration(id: "9999_broken", bytes: Array("CREATE TABLE half (x); SELECT nope;".utf8))
      ]
    #expect(throws: SQLiteError.self) { try Migrator.migrate(connection, migrations: broken) }
    #expect(try connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'half'") == 0)
    #expect(try Migrator.state(of: connection, migrations: broken).pending == broken.map(\.id))
    #expect(try connection.scalarInt("SELECT count(*) FROM sqlite_master") == 0)
  }

  @Test("a database from a newer Sleeve is refused, named, and left unchanged")
  func newerSchemaIsRefused() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("db.sqlite")
    let connection = try SleeveDatabase.openForWriting(path: path)
    try connection.execute(
      "INSERT INTO schema_migrations (id, applied_unix_ns) VALUES ('0999_future', 0)")
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let error = try #require(throws: StoreError.self) {
      try SleeveDatabase.openForWriting(path: path)
    }
    #expect(error == .newerSchema(path: path, unknown: ["0999_future"]))
    #expect(error.description.contains("upgrade Sleeve"))
    #expect(throws: StoreError.self) { try SleeveDatabase.openForReading(path: path) }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test("a file of random bytes is refused as not a database, and left unchanged")
  func randomBytesAreRefused() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("noise.sqlite")
    var generator = SeededGenerator(seed: 0xB17E5)  // the noise is the same in every run
    let noise = Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) })
    try noise.write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: StoreError.self) {
      try SleeveDatabase.openForWriting(path: path)
    }
    guard case .notADatabase = error else {
      Issue.record("expected notADatabase, got \(error)")
      return
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == noise)
  }

  @Test("a SQLite database Sleeve did not create is refused with its tables named")
  func foreignDatabaseIsRefused() throws {
    let directory = TemporaryDirectory()
    let path = directory.path("foreign.sqlite")
    try Connection(path: path).execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    let error = try #require(throws: StoreError.self) {
      try SleeveDatabase.openForWriting(path: path)
    }
    #expect(error == .notASleeveDatabase(path: path, tables: ["invoices"]))
    #expect(try Connection(path: path).scalarInt("SELECT count(*) FROM sqlite_master") == 1)
  }
}
