import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveHistory

/// The one table list (`HistoryTables`) names columns both schemas have: the history's
/// (`Migrations/postgresql/`, as a server creates it) and a Sleeve file's (`Migrations/`).
@Suite("The history's schema", .enabled(if: Proofs.run(needs: TestPostgres.tool)))
struct HistorySchemaTests {
  @Test("every column the copy declares exists in the history's tables and in a file's")
  func tablesMatchBothSchemas() async throws {
    let history = try await HistoryServer.fresh()
    let directory = TemporaryDirectory()
    let file = try SleeveDatabase.openForWriting(path: directory.path("file.sqlite"))
    var declared = (HistoryTables.heads + [HistoryTables.sessions] + HistoryTables.bodies)
      .map { ($0.name, $0.columns.map(\.name)) }
    declared.append(
      ("flag_events", ["session_id"] + HistoryTables.flagEventColumns.map(\.name)))
    for (table, columns) in declared {
      let server = Set(
        try history.psql(
          "SELECT column_name FROM information_schema.columns WHERE table_name = '\(table)'"
        ).split(separator: "\n").map(String.init))
      let info = try file.prepare("SELECT name FROM pragma_table_info(?)")
      try info.bind(table, at: 1)
      var local: Set<String> = []
      while try info.step() { local.insert(info.text(at: 0) ?? "") }
      for column in columns {
        #expect(server.contains(column), "the history's \(table) has no \(column)")
        #expect(local.contains(column), "a file's \(table) has no \(column)")
      }
    }
  }
}
