import CSQLite
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

@Suite("Export memory", .serialized)
struct ExportMemoryTests {
  static let textBytes = 1 << 20
  static let rows = 128

  @Test("reading a session to export holds one row's texts, not rows times their length")
  func exportMemoryDoesNotGrowWithRowsTimesTextLength() throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "big")
    try fixture.handler(
      session: 1, number: 1, name: String(repeating: "h", count: Self.textBytes), control: "c")
    try fixture.outcomes(
      session: 1, handler: 1, durations: Array(repeating: 5, count: Self.rows), status: 1)
    try fixture.connection.execute(
      "UPDATE outcomes SET error_type = 'E', error_message = printf('%.*c', \(Self.textBytes), 'm')"
    )
    let database = try QueryDatabase(path: fixture.path)
    let session = try #require(try database.sessions(matching: QueryFilter()).first)
    var before: Int64 = 0
    var peak: Int64 = 0
    sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &before, &peak, 1)
    var rows = 0
    var textBytes = 0
    try database.forEachFireGroup(in: session) { group in
      for outcome in group.outcomes {
        rows += 1
        textBytes += (outcome.handler?.utf8.count ?? 0) + (outcome.errorMessage?.utf8.count ?? 0)
      }
    }
    var after: Int64 = 0
    sqlite3_status64(SQLITE_STATUS_MEMORY_USED, &after, &peak, 0)
    #expect(rows == Self.rows)
    // Each row's texts are capped as the recorder caps them (a name, a message).
    let capped = RecordedText.Limit.name.bytes + RecordedText.Limit.message.bytes
    #expect(textBytes == capped * Self.rows)
    // The rows carry 256 MiB of text; one row's is 2 MiB. SQLite's own cache and statements
    // stay under a few MiB; 32 MiB leaves room for other tests' connections in this process.
    let grown = peak - before
    #expect(grown < 32 << 20, "SQLite's memory grew by \(grown >> 20) MiB during the read")
  }
}
