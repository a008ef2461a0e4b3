import Foundation
import SleeveQuery
import SleeveStore
import SleeveTestSupport
import Testing

/// Queries answered from summaries: the same counts as raw rows, percentiles within their
/// bound, and selections that cannot be answered alike refused by name.
@Suite("Answers from summaries")
struct SummaryAnswerTests {
  /// Three ended sessions of two handlers (one gated), seeded log-normal durations, failures
  /// of two kinds; summarized unless `summarized` says otherwise.
  static func history(seed: UInt64, summarized: Set<Int64> = [1, 2, 3]) throws
    -> FixtureDatabase
  {
    var random = SeededGenerator(seed: seed)
    let fixture = try FixtureDatabase()
    for session in Int64(1)...3 {
      try fixture.session(session, name: "run \(session)", startedSeconds: 1_700_000_000 + session)
      try fixture.handler(session: session, number: 1, name: "submit", control: "Checkout")
      try fixture.handler(session: session, number: 2, name: "search", control: "Search")
      for handler in Int64(1)...2 {
        let samples = (0..<400).map { index -> FixtureDatabase.Sample in
          let u = Double.random(in: 0.0001..<1, using: &random)
          let v = Double.random(in: 0.0001..<1, using: &random)
          let normal = (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
          let duration = Int64(2_000_000 * exp(0.9 * normal)) * handler
          let failed = index % 37 == 0
          return FixtureDatabase.Sample(
            duration, failed: failed, errorType: failed ? "CheckoutError" : nil,
            errorMessage: failed ? "timeout after \(index) ms" : nil)
        }
        try fixture.samples(session: session, handler: handler, samples)
      }
    }
    try fixture.connection.transaction {
      for session in summarized.sorted() {
        try SummaryTables.summarize(
          session: session, connection: fixture.connection, unixNanoseconds: 1)
      }
    }
    return fixture
  }

  static func all(_ method: AnswerMethod) -> QueryFilter {
    var filter = QueryFilter()
    filter.session = .all
    filter.method = method
    return filter
  }

  @Test("error rates and failure kinds from summaries equal those from raw rows, exactly")
  func errorsAreExact() throws {
    let seed = UInt64(Date().timeIntervalSince1970)
    let fixture = try Self.history(seed: seed)
    let database = try QueryDatabase(path: fixture.path)
    for grouping in [Grouping.handler, .control, .session, .variant] {
      let summaries = try database.errorRates(matching: Self.all(.histogram), by: grouping)
      let raw = try database.errorRates(matching: Self.all(.exact), by: grouping)
      #expect(summaries == raw, "seed \(seed), by \(grouping)")
    }
    let sessions = try database.sessions(matching: Self.all(.automatic))
    let fromSummaries = try database.tallies(
      of: sessions, filter: Self.all(.histogram), by: .handler, collectDurations: false)
    let fromRaw = try database.tallies(
      of: sessions, filter: Self.all(.exact), by: .handler, collectDurations: false)
    #expect(
      fromSummaries.map { $0.groups.map(\.failureKinds) }
        == fromRaw.map { $0.groups.map(\.failureKinds) }, "seed \(seed)")
    #expect(fromSummaries.first?.groups.first?.failureKinds.isEmpty == false)
    withExtendedLifetime(fixture) {}
  }

  @Test(
    "latency from summaries: n, min, max and mean exact, each percentile within its bound of numpy's 'lower'"
  )
  func latencyIsWithinTheBound() throws {
    let seed = UInt64(Date().timeIntervalSince1970)
    let fixture = try Self.history(seed: seed)
    let database = try QueryDatabase(path: fixture.path)
    let points = [0.0, 50, 90, 95, 99, 99.9, 100]
    let rows = try database.latency(
      matching: Self.all(.automatic), by: .handler, percentiles: points)
    #expect(rows.count == 2)
    for row in rows {
      let number: Int64 = row.key == "submit" ? 1 : 2
      var durations: [Int64] = []
      let statement = try fixture.connection.prepare(
        "SELECT duration_ns FROM outcomes WHERE registration_id & 4294967295 = ?")
      try statement.bind(number, at: 1)
      while try statement.step() { durations.append(statement.int64(at: 0)) }
      durations.sort()
      #expect(row.n == durations.count)
      #expect(row.min == durations.first && row.max == durations.last)
      let mean = Double(durations.reduce(0, +)) / Double(durations.count)
      #expect(abs((row.mean ?? 0) - mean) <= 1e-9 * mean)
      let bound = try #require(row.relativeError)
      #expect(abs(bound - 0.010_830) < 1e-5)
      for (index, point) in points.enumerated() {
        // numpy method='lower': the value at 0-based rank floor((n − 1)·p/100).
        let rank = Int((Double(durations.count - 1) * (point / 100)).rounded(.down))
        let exact = Double(durations[rank])
        let estimate = try #require(row.points[index].nanoseconds)
        #expect(
          abs(estimate - exact) <= bound * exact * (1 + 1e-9),
          "seed \(seed): \(row.key) p\(point) = \(estimate), exact lower \(exact)")
      }
    }
  }

  @Test("automatic answers from summaries only when every selected ended session has them")
  func automaticNeverMixes() throws {
    let fixture = try Self.history(seed: 1)
    let all = try QueryDatabase(path: fixture.path)
    let sessions = try all.sessions(matching: Self.all(.automatic))
    #expect(try all.answerPlan(for: sessions, method: .automatic).source == .summaries)
    #expect(try all.answerPlan(for: sessions, method: .exact).source == .rawRows)
    #expect(
      try all.answerPlan(for: sessions, method: .automatic, grouping: .event).source == .rawRows)

    let partFixture = try Self.history(seed: 1, summarized: [1, 3])
    let partly = try QueryDatabase(path: partFixture.path)
    let partSessions = try partly.sessions(matching: Self.all(.automatic))
    #expect(try partly.answerPlan(for: partSessions, method: .automatic).source == .rawRows)
    #expect(throws: QueryError.notSummarized(sessions: [2])) {
      try partly.answerPlan(for: partSessions, method: .histogram)
    }
    // The rows a mixed selection gets are the raw rows' for every session.
    let rows = try partly.latency(matching: Self.all(.automatic), by: .handler, percentiles: [99])
    #expect(rows.allSatisfy { $0.relativeError == nil })
    withExtendedLifetime((fixture, partFixture)) {}
  }

  @Test(
    "a pruned session answers from summaries; --exact and --by event over it, or unsummarized sessions beside it, are refused by name"
  )
  func prunedSessionsAnswerFromSummaries() throws {
    let fixture = try Self.history(seed: 2, summarized: [1, 3])
    // Prune session 1 as `sleeve prune` does: raw rows gone, its mark says so.
    try SummaryTables.markPruned(
      session: 1, unixNanoseconds: 5, connection: fixture.connection)
    try fixture.connection.execute(
      "DELETE FROM outcomes WHERE id >> 32 = 1; DELETE FROM fires WHERE id >> 32 = 1")
    let database = try QueryDatabase(path: fixture.path)
    let sessions = try database.sessions(matching: Self.all(.automatic))
    #expect(throws: QueryError.notSummarized(sessions: [2])) {
      try database.answerPlan(for: sessions, method: .automatic)
    }
    #expect(throws: QueryError.rawRowsPruned(sessions: [1], need: "--exact")) {
      try database.answerPlan(for: sessions, method: .exact)
    }
    let summarized = sessions.filter { $0.id != 2 }
    let plan = try database.answerPlan(for: summarized, method: .automatic)
    #expect(plan.source == .summaries && plan.pruned == [1])
    #expect(plan.sentence.contains("pruned) for session 1"))
    #expect(throws: QueryError.rawRowsPruned(sessions: [1], need: "--by event")) {
      try database.answerPlan(for: summarized, method: .automatic, grouping: .event)
    }
    var filter = Self.all(.automatic)
    filter.limit = nil
    let errors = try database.tallies(
      of: summarized, filter: filter, by: .handler, collectDurations: true)
    #expect(errors.map { $0.groups.map(\.ran) } == [[400, 400], [400, 400]])
  }

  @Test("--by event with --method histogram is refused as needing raw rows, not answered from them")
  func byEventRefusesHistogramMethod() throws {
    let fixture = try Self.history(seed: 1)
    let database = try QueryDatabase(path: fixture.path)
    let sessions = try database.sessions(matching: Self.all(.automatic))
    #expect(throws: QueryError.summariesCannotAnswer(need: "--by event")) {
      try database.answerPlan(for: sessions, method: .histogram, grouping: .event)
    }
    #expect(
      QueryError.summariesCannotAnswer(need: "--by event").description
        == "--by event needs raw rows (summaries are per handler, not per event), and --method "
        + "histogram answers from summaries only; drop --method histogram, or drop --by event")
    #expect(
      try database.answerPlan(for: sessions, method: .exact, grouping: .event).source == .rawRows)
    withExtendedLifetime(fixture) {}
  }

  @Test("an unterminated session is summarized on demand from its raw rows, equal to them")
  func unterminatedIsSummarizedOnDemand() throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "crashed", status: "running")
    try fixture.handler(session: 1, number: 1, name: "submit", control: "Checkout")
    try fixture.samples(
      session: 1, handler: 1, (1...50).map { FixtureDatabase.Sample(Int64($0) * 1_000_000) })
    let database = try QueryDatabase(path: fixture.path)
    let sessions = try database.sessions(matching: Self.all(.automatic))
    let plan = try database.answerPlan(for: sessions, method: .histogram)
    #expect(plan.source == .summaries && plan.summarizedOnDemand == [1])
    let rows = try database.latency(matching: Self.all(.histogram), by: .handler, percentiles: [50])
    #expect(rows.first?.n == 50 && rows.first?.relativeError != nil)
    // Rank floor(49 · 0.5) = 24: the 25th value, 25 ms, within the bound.
    let p50 = try #require(rows.first?.points.first?.nanoseconds)
    #expect(abs(p50 - 25_000_000) <= 0.010_83 * 25_000_000)
  }

  @Test(
    "a damaged summary blob, or one whose columns disagree with it, is a damaged-summary error naming the session; --exact still answers"
  )
  func damagedSummaryNamesTheSession() throws {
    for damage in [
      "UPDATE outcome_summaries SET histogram = x'01ff' WHERE registration_id >> 32 = 2",
      "UPDATE outcome_summaries SET scale = 7 WHERE registration_id >> 32 = 2",
      "UPDATE outcome_summaries SET histogram = 'text' WHERE registration_id >> 32 = 2",
      "UPDATE outcome_summaries SET ok = ok + 1 WHERE registration_id >> 32 = 2",
    ] {
      let fixture = try Self.history(seed: 3)
      try fixture.connection.execute(damage)
      // Without rollups (a file from before 0006), every session's own summaries are read.
      try fixture.connection.execute("DELETE FROM summary_blocks")
      let database = try QueryDatabase(path: fixture.path)
      do {
        _ = try database.latency(matching: Self.all(.automatic), by: .handler, percentiles: [99])
        Issue.record("\(damage): no error")
      } catch QueryError.damagedSummary(.damaged(let session, _)) {
        #expect(session == 2, "\(damage)")
      }
      #expect(
        try database.latency(matching: Self.all(.exact), by: .handler, percentiles: [99]).count
          == 2)
    }
  }
}

/// The flag-on versus flag-off latency check on summaries reaches the raw rows' verdict.
@Suite("Flag verdicts from summaries")
struct FlagVerdictSummaryTests {
  @Test(
    "on vs off latency from summaries: the same verdicts as from raw rows, the method saying histograms",
    arguments: [1.0, 1.5, 3.0])
  func latencyVerdictMatchesRawRows(slowdown: Double) throws {
    // Clear cases only, at a fixed seed: a slowdown near the practical threshold can fall on
    // either side of it once values in a bucket tie (the seeded agreement rate is diff's
    // `verdictsAgreeWithRawRows`).
    let seed: UInt64 = 0x15_F1A9
    var random = SeededGenerator(seed: seed)
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "rollout")
    try fixture.handler(
      session: 1, number: 1, name: "charge", control: "Pay", flag: "new-pay")
    try fixture.flag(
      session: 1, key: "new-pay", owner: "payments", maxErrorRate: nil, maxP99: nil,
      minSamples: 20, states: [("enabled", nil)])
    func durations(_ factor: Double) -> [Int64] {
      (0..<300).map { _ in
        Int64(Double(Int64.random(in: 1_000_000...3_000_000, using: &random)) * factor)
      }
    }
    try fixture.outcomes(session: 1, handler: 1, durations: durations(slowdown), variant: 1)
    try fixture.outcomes(session: 1, handler: 1, durations: durations(1), variant: 0)
    try fixture.summarizeEnded()
    let database = try QueryDatabase(path: fixture.path)
    func latencyCheck(_ method: AnswerMethod) throws -> GateCheck {
      var filter = QueryFilter()
      filter.session = .all
      filter.method = method
      let verdict = try #require(try database.verdicts(matching: filter).first)
      return try #require(verdict.checks.first { $0.metric == .latencyVersusOff })
    }
    let summaries = try latencyCheck(.histogram)
    let raw = try latencyCheck(.exact)
    #expect(summaries.verdict == raw.verdict, "seed \(seed), slowdown \(slowdown)")
    #expect(summaries.verdict != .insufficient, "seed \(seed)")
    #expect(summaries.detail?.contains("on summary histograms") == true)
    #expect(raw.detail?.contains("histograms") == false)
    if slowdown >= 1.5 { #expect(summaries.verdict == .breach, "seed \(seed)") }
  }
}
