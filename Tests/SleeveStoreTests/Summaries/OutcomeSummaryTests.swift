import SleeveStore
import SleeveTestSupport
import Testing

/// A session's summaries, built from its raw rows.
@Suite("Outcome summaries")
struct OutcomeSummaryTests {
  @Test("the standard fixture's summaries count every status and hold the ran durations")
  func standardFixture() throws {
    let fixture = try FixtureDatabase.standard()
    let summaries = try OutcomeSummaries.build(session: 1, connection: fixture.connection)
    let validate = try #require(
      summaries[OutcomeSummary.Key(registration: 1 << 32 | 1, variant: -1)])
    // 9 ok, 1 skipped, 1 ownerReleased; the durations are the 9 ok ones.
    #expect(validate.statusCounts == [9, 0, 1, 1, 0, 0])
    #expect(validate.durations.count == 9 && validate.durations.sum == 68)
    #expect(validate.durations.minimum == 1 && validate.durations.maximum == 11)
    // numpy: np.percentile([1,4,6,7,8,9,11,11,11], 50, method='lower') == 8; the estimate
    // is within 1.083% of it (8 is a bucket's upper bound: the error is the bound itself, up
    // to floating-point rounding).
    let median = try #require(validate.durations.lowerPercentile(50))
    #expect(abs(median - 8) <= 8 * validate.durations.relativeError * (1 + 1e-9))
    let on = try #require(summaries[OutcomeSummary.Key(registration: 1 << 32 | 2, variant: 1)])
    #expect(on.statusCounts == [8, 2, 0, 0, 0, 0] && on.durations.sum == 1_600)
    let off = try #require(summaries[OutcomeSummary.Key(registration: 1 << 32 | 2, variant: 0)])
    #expect(off.statusCounts == [5, 0, 0, 0, 0, 0] && off.durations.maximum == 50)
    #expect(summaries.count == 3)
    #expect(try OutcomeSummaries.build(session: 2, connection: fixture.connection).count == 1)
  }

  @Test("two sessions' summaries merged equal the summary of both sessions' outcomes together")
  func mergedSummariesAreTheUnion() throws {
    let fixture = try FixtureDatabase.standard()
    let alpha = try OutcomeSummaries.build(session: 1, connection: fixture.connection)
    let beta = try OutcomeSummaries.build(session: 2, connection: fixture.connection)
    let key = { (session: Int64) in OutcomeSummary.Key(registration: session << 32 | 1, variant: -1)
    }
    let betaSummary = try #require(beta[key(2)])
    let merged = try #require(alpha[key(1)]?.merged(with: betaSummary))
    var direct = OutcomeSummary()
    for duration: Int64 in [1, 4, 6, 7, 8, 9, 11, 11, 11, 5, 5, 5] {
      direct.add(status: 0, duration: duration)
    }
    direct.add(status: 3, duration: 0)
    direct.add(status: 2, duration: 0)
    #expect(merged == direct)
    #expect(HistogramCoding.encode(merged.durations) == HistogramCoding.encode(direct.durations))
  }

  @Test("a ran outcome whose duration is text is a damaged file, named by its row")
  func textDurationIsCorrupt() throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.connection.execute(
      "UPDATE outcomes SET duration_ns = 'slow' WHERE id = (1 << 32) | 3")
    #expect(throws: StoreError.self) {
      try OutcomeSummaries.build(session: 1, connection: fixture.connection)
    }
    // A status outside the known codes (a file written past its CHECK constraints) is counted
    // apart, not as a known one.
    try fixture.connection.execute(
      """
      PRAGMA ignore_check_constraints = ON;
      UPDATE outcomes SET duration_ns = 6, status = 9 WHERE id = (1 << 32) | 3;
      """)
    let summaries = try OutcomeSummaries.build(session: 1, connection: fixture.connection)
    let validate = try #require(
      summaries[OutcomeSummary.Key(registration: 1 << 32 | 1, variant: -1)])
    #expect(validate.unknownStatus == 1 && validate.statusCounts[0] == 8)
  }

  @Test("failure kinds are capped at 64 a summary, the rest counted under '…', every failure kept")
  func failureKindsAreCapped() {
    var summary = OutcomeSummary()
    for index in 0..<100 {
      let words = String(repeating: "x", count: index % 7) + String(UnicodeScalar(65 + index % 26)!)
      let message = "\(words) \(index / 26) " + String(repeating: "é", count: 500)
      summary.addFailure(FailureKind(type: "E\(index)", message: message), message: message)
    }
    #expect(summary.failures.count == OutcomeSummary.maximumFailureKinds)
    #expect(summary.failures.values.reduce(0) { $0 + $1.count } == 100)
    #expect(summary.failures[.overflow]?.count == 37)
    #expect(
      summary.failures.values.allSatisfy {
        ($0.message?.unicodeScalars.count ?? 0) <= FailureKind.maximumPatternScalars
      })
  }
}
