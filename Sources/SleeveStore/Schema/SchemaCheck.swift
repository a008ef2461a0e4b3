/// Checks that a migrated file still has every table and column the migrations create, so a
/// file with a dropped table or column is refused as damaged (exit 65) when it is opened, not
/// answered with `no such column` half-way through a query.
///
/// The expected schema is not written down a second time: it is read from a private in-memory
/// database the same migrations built.
enum SchemaCheck {
  /// Throws `StoreError.corrupt` naming the first table or column `connection` lacks.
  static func verify(_ connection: Connection, migrations: [Migration] = SchemaMigrations.all)
    throws
  {
    let expected =
      migrations == SchemaMigrations.all ? try standard.get() : try schema(built: migrations)
    try require(expected, in: try columns(of: connection), path: connection.path)
  }

  /// Throws `StoreError.corrupt` naming the first table of `expected` that `present` lacks
  /// (unless `tablesOptional`) or the first column a present table lacks.
  private static func require(
    _ expected: [String: Set<String>], in present: [String: Set<String>], path: String,
    tablesOptional: Bool = false
  ) throws {
    for (table, names) in expected.sorted(by: { $0.key < $1.key }) {
      guard let have = present[table] else {
        if tablesOptional { continue }
        throw StoreError.corrupt(path: path, detail: "table '\(table)' is missing")
      }
      if let missing = names.sorted().first(where: { !have.contains($0) }) {
        throw StoreError.corrupt(path: path, detail: "column '\(table).\(missing)' is missing")
      }
    }
  }

  /// Creates, in `connection`'s temporary schema, every table that `missing` migrations would
  /// add to a file at `applied`, empty: a reader of an older file then queries them as if
  /// they were there. Their definitions are read from an in-memory database the migrations
  /// built, never written a second time.
  ///
  /// - Throws: `StoreError.corrupt` when the file already has a table of that name lacking one
  ///   of its columns (it was not made by the migration, so queries would fail half-way).
  static func createEmptyTables(
    on connection: Connection, missing: [Migration], after applied: [Migration]
  ) throws {
    let memory = try Connection(path: ":memory:", mode: .readWriteCreate)
    try Migrator.migrate(memory, migrations: applied + missing)
    let existing = try columns(of: connection)
    // A table a pending migration would create that the file already has (made by something
    // else, its ledger entry lost) is read as it is only when it has every column.
    try require(
      try columns(of: memory), in: existing, path: connection.path, tablesOptional: true)
    let statement = try memory.prepare(
      """
      SELECT name, sql FROM sqlite_master
      WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'
      ORDER BY rowid
      """)
    while try statement.step() {
      guard let name = statement.text(at: 0), existing[name] == nil,
        let sql = statement.text(at: 1), sql.hasPrefix("CREATE TABLE ")
      else { continue }
      try connection.execute("CREATE TEMP TABLE " + sql.dropFirst("CREATE TABLE ".count))
    }
  }

  /// The schema of this binary's migrations, built once per process.
  private static let standard = Result { try schema(built: SchemaMigrations.all) }

  private static func schema(built migrations: [Migration]) throws -> [String: Set<String>] {
    let memory = try Connection(path: ":memory:", mode: .readWriteCreate)
    try Migrator.migrate(memory, migrations: migrations)
    return try columns(of: memory)
  }

  /// Every table's column names (SQLite's own tables and the migration ledger aside).
  private static func columns(of connection: Connection) throws -> [String: Set<String>] {
    let statement = try connection.prepare(
      """
      SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p
      WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%'
      """)
    var tables: [String: Set<String>] = [:]
    while try statement.step() {
      tables[statement.text(at: 0) ?? "", default: []].insert(statement.text(at: 1) ?? "")
    }
    return tables
  }
}
