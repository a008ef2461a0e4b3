import Foundation
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

/// Blocks of 64 sessions rolled up per handler: the same answers as reading every session's
/// summaries, used only while they describe the sessions the file holds.
@Suite("Summary rollups")
struct SummaryRollupTests {
  /// `count` ended sessions (ids 1…count, so blocks 0, 1, …) on two branches, three handlers
  /// (one gated, one on two sites under one name), seeded durations; each summarized as it
  /// would be when it ended.
  static func history(sessions count: Int64, seed: UInt64) throws -> FixtureDatabase {
    var random = SeededGenerator(seed: seed)
    let fixture = try FixtureDatabase()
    for session in 1...count {
      try fixture.session(session, name: "run \(session)", startedSeconds: 1_700_000_000 + session)
      try fixture.context(session: session, branch: session % 3 == 0 ? "feature" : "main")
      try fixture.handler(session: session, number: 1, name: "submit", control: "Checkout")
      try fixture.handler(
        session: session, number: 2, name: "charge", control: "Pay", flag: "new-pay")
      try fixture.handler(
        session: session, number: 3, name: "submit", control: "Express", site: "Express.swift:9")
      for (number, variant) in [(Int64(1), nil), (2, 1), (2, 0), (3, nil)] as [(Int64, Int?)] {
        let durations = (0..<Int.random(in: 3...12, using: &random)).map { _ in
          Int64.random(
            in: 10_000...(1 << Int64.random(in: 15...30, using: &random)), using: &random)
        }
        try fixture.outcomes(
          session: session, handler: number, durations: durations, variant: variant)
      }
      try fixture.outcomes(session: session, handler: 1, durations: [7_000], status: 1)
      _ = try fixture.connection.transaction {
        try SummaryTables.summarize(
          session: session, connection: fixture.connection, unixNanoseconds: 1)
      }
    }
    return fixture
  }

  static func filters() -> [(String, QueryFilter)] {
    var all = QueryFilter()
    all.session = .all
    all.method = .histogram
    var last = all
    last.limit = 30  // sessions 51…80: block 0 is partly selected
    var branch = all
    branch.branch = "main"
    var handler = all
    handler.handler = "submit"
    var control = all
    control.control = "Pay"
    return [
      ("all", all), ("last 70", last), ("branch", branch), ("handler", handler),
      ("control", control),
    ]
  }

  /// Every answer the scans give, as text: latency and error rows by every grouping rollups
  /// serve.
  static func answers(_ database: QueryDatabase, _ filter: QueryFilter) throws -> String {
    var text = ""
    for grouping in [Grouping.handler, .control, .flag, .variant] {
      text +=
        "\(try database.latency(matching: filter, by: grouping, percentiles: [0, 50, 99, 100]))"
      text += "\(try database.errorRates(matching: filter, by: grouping))"
    }
    return text
  }

  @Test(
    "answers from rollups equal the answers from every session's summaries, for every selection and grouping"
  )
  func rollupsAnswerAsSessionsDo() throws {
    let seed = UInt64(Date().timeIntervalSince1970)
    let fixture = try Self.history(sessions: 80, seed: seed)
    let connection = fixture.connection
    #expect(try SummaryRollups.blockStates(connection: connection).count == 2)
    let database = try QueryDatabase(path: fixture.path)
    var withRollups: [String] = []
    for (_, filter) in Self.filters() { withRollups.append(try Self.answers(database, filter)) }
    // The same file without rollups: every session read one by one.
    try connection.execute("DELETE FROM summary_blocks")
    let plain = try QueryDatabase(path: fixture.path)
    for (index, (name, filter)) in Self.filters().enumerated() {
      #expect(try Self.answers(plain, filter) == withRollups[index], "seed \(seed): \(name)")
    }
  }

  @Test("a rollup is read only while every summarized session of its block is selected and counted")
  func rollupsAreUsedOnlyWhenTheyDescribeTheSelection() throws {
    let fixture = try Self.history(sessions: 70, seed: 9)
    // Damage block 0's rollup: a selection that uses it says so; one that cannot does not.
    try fixture.connection.execute("UPDATE summary_rollups SET histogram = x'00' WHERE block = 0")
    let database = try QueryDatabase(path: fixture.path)
    var all = QueryFilter()
    all.session = .all
    #expect(throws: QueryError.self) {
      try database.latency(matching: all, by: .handler, percentiles: [99])
    }
    var partial = all
    partial.limit = 40  // sessions 31…70: block 0 is not wholly selected
    #expect(try database.latency(matching: partial, by: .handler, percentiles: [99]).count == 2)
    // A block row that no longer matches its sessions (a session added behind its back) is
    // ignored: the sessions are read one by one.
    try fixture.connection.execute(
      "UPDATE summary_blocks SET sessions = sessions + 1 WHERE block = 0")
    #expect(try database.latency(matching: all, by: .handler, percentiles: [99]).count == 2)
  }

  @Test("rebuilding, merging and deleting sessions keep every block's row equal to its sessions")
  func writersKeepBlocksConsistent() throws {
    let fixture = try Self.history(sessions: 66, seed: 4)
    let connection = fixture.connection
    func consistent(_ connection: Connection) throws -> Bool {
      var byBlock: [Int64: [Int64]] = [:]
      for id in try SummaryTables.states(connection: connection).keys {
        byBlock[SummaryRollups.block(of: id), default: []].append(id)
      }
      let stored = try SummaryRollups.blockStates(connection: connection)
      return stored.count == byBlock.count
        && byBlock.allSatisfy { stored[$0.key] == SummaryRollups.BlockState(holding: $0.value) }
    }
    #expect(try consistent(connection))
    let before = try #require(try SummaryRollups.rows(of: 0, connection: connection))
      .map { "\($0.identity.key) \($0.variant) \(HistogramCoding.encode($0.summary.durations))" }
      .sorted()
    // Summarizing a session again rebuilds its block: the same rows.
    _ = try connection.transaction {
      try SummaryTables.summarize(session: 5, connection: connection, unixNanoseconds: 2)
    }
    #expect(try consistent(connection))
    let after = try #require(try SummaryRollups.rows(of: 0, connection: connection))
      .map { "\($0.identity.key) \($0.variant) \(HistogramCoding.encode($0.summary.durations))" }
      .sorted()
    #expect(after == before)
    // merge builds the target's blocks from the copied summaries.
    let directory = TemporaryDirectory()
    let target = try SleeveDatabase.openForWriting(path: directory.path("merged.sqlite"))
    _ = try SessionMerger(target: target).merge(path: fixture.path, includeUnterminated: false)
    #expect(try consistent(target))
    #expect(
      try SummaryRollups.blockStates(connection: target).values.map(\.sessions).sorted() == [3, 63])
    // Deleting a session's summaries drops its block's rollup.
    try connection.transaction { try SummaryTables.delete(session: 65, connection: connection) }
    #expect(try SummaryRollups.blockStates(connection: connection)[1] == nil)
  }
}
