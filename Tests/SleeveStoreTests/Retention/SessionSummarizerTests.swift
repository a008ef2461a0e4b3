import SleeveStore
import SleeveTestSupport
import Testing

/// `sleeve summarize`'s engine: ended sessions without summaries get them, once.
@Suite("Session summarizer")
struct SessionSummarizerTests {
  @Test("summarizing writes the summaries OutcomeSummaries.build makes of the raw rows")
  func summariesEqualTheRawRowSummaries() throws {
    let fixture = try FixtureDatabase.standard()
    let report = try SessionSummarizer.summarize(
      sessions: [1, 2], rebuild: false, connection: fixture.connection, unixNanoseconds: 7)
    #expect(report.summarized.map(\.session) == [1, 2])
    #expect(report.summarized.map(\.summaries) == [3, 1])
    for session: Int64 in [1, 2] {
      let stored = try SummaryTables.read(session: session, connection: fixture.connection)
      let built = try OutcomeSummaries.build(session: session, connection: fixture.connection)
      #expect(stored == built)
      #expect(!stored.isEmpty)
    }
    let state = try #require(try SummaryTables.state(of: 1, connection: fixture.connection))
    // alpha: 26 fires and outcomes (9 + 8 + 2 + 5 + 1 + 1), summarized at the time given.
    #expect(state.summarizedUnixNanoseconds == 7 && state.fires == 26 && state.outcomes == 26)
    #expect(!state.isPruned)
  }

  @Test("summarizing again changes nothing; --rebuild writes the summaries again")
  func idempotentUnlessRebuilt() throws {
    let fixture = try FixtureDatabase.standard()
    _ = try SessionSummarizer.summarize(
      sessions: [1, 2], rebuild: false, connection: fixture.connection, unixNanoseconds: 7)
    let again = try SessionSummarizer.summarize(
      sessions: [1, 2], rebuild: false, connection: fixture.connection, unixNanoseconds: 8)
    #expect(again.summarized.isEmpty && again.alreadySummarized == [1, 2])
    #expect(
      try SummaryTables.state(of: 1, connection: fixture.connection)?
        .summarizedUnixNanoseconds == 7)
    // A summary row lost (or damaged) is written again only by a rebuild.
    try fixture.connection.execute(
      "DELETE FROM outcome_summaries WHERE registration_id = (1 << 32) | 1")
    let rebuilt = try SessionSummarizer.summarize(
      sessions: [1], rebuild: true, connection: fixture.connection, unixNanoseconds: 9)
    #expect(rebuilt.summarized.map(\.session) == [1])
    #expect(
      try SummaryTables.state(of: 1, connection: fixture.connection)?
        .summarizedUnixNanoseconds == 9)
    #expect(
      try SummaryTables.read(session: 1, connection: fixture.connection)
        == OutcomeSummaries.build(session: 1, connection: fixture.connection))
  }

  @Test("a session that has not ended is skipped and counted; one not in the file is named gone")
  func notEndedIsSkipped() throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.session(3, name: "live", status: "running")
    try fixture.handler(session: 3, number: 1, name: "validate", control: "checkout.pay")
    try fixture.outcomes(session: 3, handler: 1, durations: [5])
    let report = try SessionSummarizer.summarize(
      sessions: [3, 1, 99], rebuild: true, connection: fixture.connection)
    #expect(report.notEnded == [3] && report.missing == [99])
    #expect(report.summarized.map(\.session) == [1])
    #expect(try SummaryTables.state(of: 3, connection: fixture.connection) == nil)
  }

  @Test("a rebuild never touches a pruned session: its summaries are all that is left")
  func rebuildKeepsPrunedSessions() throws {
    let fixture = try FixtureDatabase.standard()
    let plan = try RawRowPruner.plan(
      sessions: [1], policy: .keepLast(0), connection: fixture.connection)
    _ = try RawRowPruner.execute(plan, connection: fixture.connection, reclaimSpace: false)
    let before = try SummaryTables.read(session: 1, connection: fixture.connection)
    let report = try SessionSummarizer.summarize(
      sessions: [1], rebuild: true, connection: fixture.connection)
    #expect(report.pruned == [1] && report.summarized.isEmpty)
    #expect(try SummaryTables.read(session: 1, connection: fixture.connection) == before)
    #expect(!before.isEmpty)
  }
}
