import SleeveQuery
import SleeveTestSupport
import Testing

/// Baseline against candidate: every verdict kind from seeded histories with known changes.
@Suite("Baseline diff")
struct BaselineDiffTests {
  static func diff(
    _ history: SyntheticHistory, by grouping: Grouping = .handler,
    options: DiffOptions = DiffOptions()
  ) throws -> BaselineDiff {
    let database = try QueryDatabase(path: history.fixture.path)
    var baseline = QueryFilter()
    baseline.session = .all
    baseline.branch = "main"
    var candidate = QueryFilter()
    candidate.session = .id(history.candidate)
    return try database.diff(
      baseline: try database.sessions(of: .baseline, matching: baseline),
      candidate: try database.sessions(of: .candidate, matching: candidate),
      filter: QueryFilter(), by: grouping, options: options)
  }

  static func verdicts(_ diff: BaselineDiff) -> [String: DiffRow.Verdict] {
    Dictionary(
      uniqueKeysWithValues: diff.rows.map { row in
        guard case .handler(_, let name) = row.key else { return (row.key.display, row.verdict) }
        return (name, row.verdict)
      })
  }

  @Test(
    "each verdict kind comes out of a history with that change",
    arguments: [11, 12, 13] as [UInt64])
  func everyVerdict(seed: UInt64) throws {
    let history = try SyntheticHistory(
      seed: seed,
      handlers: [
        .init("steady"), .init("slower", change: .slower(1.6)),
        .init("faster", change: .faster(0.5)),
        .init("errors", errorRate: 0.01, change: .moreErrors(0.12)),
        .init("fewer", errorRate: 0.15, change: .moreErrors(0.0)),
        .init("decoding", change: .newFailureType(count: 2)),
        .init("brandNew", change: .new), .init("removed", change: .gone),
        .init("rare", perSession: 2),
      ])
    let verdicts = Self.verdicts(try Self.diff(history))
    #expect(
      verdicts == [
        "steady": .unchanged, "slower": .regressed, "faster": .improved, "errors": .regressed,
        "fewer": .improved, "decoding": .regressed, "brandNew": .new, "removed": .gone,
        "rare": .insufficient,
      ], "seed \(seed)")
  }

  @Test("a shift below the minimum change is unchanged however significant")
  func minimumEffect() throws {
    let history = try SyntheticHistory(
      seed: 7, baselineRuns: 20, handlers: [.init("tiny", perSession: 2_000, change: .slower(1.04))]
    )
    let row = try #require(try Self.diff(history).rows.first)
    #expect(row.verdict == .unchanged)
    #expect((row.latencyTest?.holm ?? 1) < 0.05, "the shift is significant, only small")
    var loose = DiffOptions()
    loose.minRelativeChange = 0.01
    loose.minLatencyChangeNanoseconds = 0
    #expect(try #require(try Self.diff(history, options: loose).rows.first).verdict == .regressed)
  }

  @Test("a new failure type regresses even at a rate no test would flag, and is named")
  func newFailureType() throws {
    let history = try SyntheticHistory(
      seed: 3, handlers: [.init("decoding", errorRate: 0.05, change: .newFailureType(count: 1))])
    let row = try #require(try Self.diff(history).rows.first)
    #expect(row.verdict == .regressed)
    #expect(
      row.newFailureKinds.map(\.kind.display) == ["DecodingError: missing key 'total' at offset #"])
  }

  @Test("insufficient rows say the smallest change their samples could detect")
  func insufficientSaysDetectable() throws {
    let history = try SyntheticHistory(seed: 5, handlers: [.init("rare", perSession: 2)])
    let row = try #require(try Self.diff(history).rows.first)
    #expect(row.verdict == .insufficient)
    #expect((row.detectable.errorRate ?? 0) > 0)
    #expect((row.detectable.latencyShift ?? 0) > 0)
  }

  @Test("Holm decides: twenty unchanged handlers seldom make a false regression, seeds 1...10")
  func familyWiseControl() async throws {
    var historiesWithFalseRegression = 0
    var rawBelowAlpha = 0
    for seed in 1...10 as ClosedRange<UInt64> {
      await Task.yield()  // ten histories: let the other tests' tasks run in between
      let history = try SyntheticHistory(
        seed: seed, baselineRuns: 4,
        handlers: (0..<20).map { .init("h\($0)", perSession: 150, errorRate: 0.2) })
      var options = DiffOptions()
      options.minRelativeChange = 0
      options.minErrorChange = 0
      options.minLatencyChangeNanoseconds = 0
      let rows = try Self.diff(history, options: options).rows
      rawBelowAlpha +=
        rows.flatMap { [$0.errorTest, $0.latencyTest] }.compactMap { $0 }
        .filter { $0.pValue < 0.05 }.count
      if rows.contains(where: { $0.verdict == .regressed }) { historiesWithFalseRegression += 1 }
    }
    // Holm keeps the chance of any false regression in one history at 5%: two or more of ten
    // histories has probability 8.6% under Binomial(10, 0.05), three or more 1.2%. Unadjusted,
    // about 5% of the 400 tests (20) fall below 0.05, and nearly every history would regress.
    #expect(historiesWithFalseRegression <= 2, "raw p < 0.05: \(rawBelowAlpha) of 400")
    #expect(rawBelowAlpha >= 5, "the raw tests do reject by chance, so Holm is what holds")
  }

  @Test("a registration whose line moved is matched as one handler and says so")
  func movedRegistration() throws {
    let fixture = try FixtureDatabase()
    for id in Int64(1)...3 {
      let line = id == 3 ? 57 : 42
      try fixture.session(id, name: "run", startedSeconds: 1_700_000_000 + id)
      try fixture.context(session: id, branch: id == 3 ? "feature" : "main")
      try fixture.handler(
        session: id, number: 1, name: "Checkout.swift:\(line)", control: "Pay",
        site: "Checkout.swift:\(line)")
      try fixture.samples(session: id, handler: 1, (0..<40).map { .init(Int64(1_000 + $0)) })
    }
    let database = try QueryDatabase(path: fixture.path)
    var baseline = QueryFilter()
    baseline.session = .all
    baseline.branch = "main"
    var candidate = QueryFilter()
    candidate.branch = "feature"
    let diff = try database.diff(
      baseline: try database.sessions(matching: baseline),
      candidate: try database.sessions(matching: candidate), filter: QueryFilter(),
      by: .handler, options: DiffOptions())
    #expect(diff.rows.count == 1)
    #expect(diff.rows.first?.movedFrom == "Checkout.swift:42")
    #expect(diff.rows.first?.verdict == .unchanged)
  }

  @Test("baseline ids an older recorder stored with their source location pair with new ids")
  func olderIDsWithLocationPair() throws {
    let history = try SyntheticHistory(
      seed: 9, handlers: [.init("steady")], testID: "CheckoutTests.Pay/submit()")
    // Main's sessions were recorded before ids dropped the location, at two lines (a line
    // was added above the test between them); the candidate's by a recorder that drops it.
    try history.fixture.connection.execute(
      """
      UPDATE session_context SET test_id = 'CheckoutTests.Pay/submit()/PayTests.swift:'
        || (7 + session_id % 2) || ':4' WHERE session_id <= 10
      """)
    let diff = try Self.diff(history)
    #expect(diff.stratifiedByTest)
    #expect(diff.rows.first?.strata == 1)
  }

  @Test("sessions that all record their test are compared test by test")
  func stratifiedByTest() throws {
    let history = try SyntheticHistory(
      seed: 9, handlers: [.init("steady")], testID: "CheckoutTests/submit()")
    let diff = try Self.diff(history)
    #expect(diff.stratifiedByTest)
    #expect(diff.rows.first?.strata == 1)
    let pooled = try Self.diff(try SyntheticHistory(seed: 9, handlers: [.init("steady")]))
    #expect(!pooled.stratifiedByTest)
    #expect(pooled.rows.first?.strata == nil)
  }
}
