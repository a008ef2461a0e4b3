import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveQuery

/// `diff` and `check --baseline` on summary histograms: the rank tests run on the buckets
/// (ties within a bucket), say so, never mix summaries with raw rows, and reach the raw rows'
/// verdicts on seeded data.
@Suite("Diff on summary histograms")
struct DiffOnSummariesTests {
  static func session(_ id: Int64, test: String? = nil) -> SessionSummary {
    var context = SessionContext()
    context.testID = test
    return SessionSummary(
      id: id, uuid: "", name: "s\(id)", startedUnixNanoseconds: 0, lastSeenUnixNanoseconds: 0,
      liveness: .ended, writeErrors: 0, failedEvents: 0, droppedEvents: 0, fires: 0,
      outcomes: 0, metadata: [:], context: context)
  }

  static func histogram(_ values: [Int64], maximumScale: Int = 5) -> ExponentialHistogram {
    var histogram = ExponentialHistogram(maximumScale: maximumScale)
    for value in values { histogram.add(value) }
    return histogram
  }

  /// A handler's tally of `durations` (the first `failed` of them failed), carrying them as raw
  /// durations or, with `summaries`, as their histogram only, as a scan answering from
  /// summaries leaves it.
  static func tally(
    _ name: String, _ durations: [Int64], failed: Int = 0, summaries: Bool,
    maximumScale: Int = 5
  ) -> GroupTally {
    var tally = GroupTally(key: .handler(control: "Checkout", name: name))
    tally.counts[Int(RecordCodes.Status.ok.rawValue)] = durations.count - failed
    tally.counts[Int(RecordCodes.Status.failed.rawValue)] = failed
    if summaries {
      tally.histogram = histogram(durations, maximumScale: maximumScale)
    } else {
      tally.durations = durations
    }
    return tally
  }

  /// A diff of sessions, each a list of (handler, durations, failed), every tally raw or every
  /// tally a histogram.
  static func diff(
    baseline: [[(String, [Int64], Int)]], candidate: [[(String, [Int64], Int)]],
    summaries: Bool, tests: [String?]? = nil, options: DiffOptions = DiffOptions()
  ) -> BaselineDiff {
    var diff = BaselineDiff(grouping: .handler, options: options)
    var id: Int64 = 0
    for (side, sessions) in [(BaselineDiff.Side.baseline, baseline), (.candidate, candidate)] {
      for groups in sessions {
        id += 1
        let test = tests.map { $0[Int(id - 1) % $0.count] } ?? nil
        diff.add(
          SessionTallies(
            session: session(id, test: test),
            groups: groups.map { tally($0.0, $0.1, failed: $0.2, summaries: summaries) }),
          side: side)
      }
    }
    diff.finish()
    return diff
  }

  /// A log-normal duration with median `median` ns and log-scale spread `sigma` (Box-Muller).
  static func logNormal(median: Double, sigma: Double, using generator: inout SeededGenerator)
    -> Double
  {
    let u1 = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &generator)
    let u2 = Double.random(in: 0..<1, using: &generator)
    let normal = (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    return median * exp(sigma * normal)
  }

  /// `count` durations: log-normal (median 2 ms, σ 0.5) or bimodal (70% near 1 ms, 30% near
  /// 8 ms, a cache hit or miss), each multiplied by 1 + `shift`.
  static func durations(
    _ count: Int, bimodal: Bool, shift: Double, using generator: inout SeededGenerator
  ) -> [Int64] {
    (0..<count).map { _ in
      let value =
        bimodal
        ? (Double.random(in: 0..<1, using: &generator) < 0.7
          ? logNormal(median: 1e6, sigma: 0.2, using: &generator)
          : logNormal(median: 8e6, sigma: 0.3, using: &generator))
        : logNormal(median: 2e6, sigma: 0.5, using: &generator)
      return Int64((value * (1 + shift)).rounded())
    }
  }

  static let shifts = [0.0, 0.05, 0.2, 0.5]

  /// One scenario: each shift a handler; the baseline two sessions, the candidate one, of `n`
  /// values a side; 1% failures on both sides.
  static func scenario(n: Int, bimodal: Bool, seed: UInt64) -> (
    baseline: [[(String, [Int64], Int)]], candidate: [[(String, [Int64], Int)]]
  ) {
    var generator = SeededGenerator(seed: seed)
    var first: [(String, [Int64], Int)] = []
    var second: [(String, [Int64], Int)] = []
    var candidate: [(String, [Int64], Int)] = []
    for shift in shifts {
      let name = "shift\(Int(shift * 100))"
      let base = durations(n, bimodal: bimodal, shift: 0, using: &generator)
      first.append((name, Array(base.prefix(n / 2)), n / 200))
      second.append((name, Array(base.dropFirst(n / 2)), n / 200))
      candidate.append(
        (name, durations(n, bimodal: bimodal, shift: shift, using: &generator), n / 100))
    }
    return ([first, second], [candidate])
  }

  static func verdicts(_ diff: BaselineDiff) -> [String: DiffRow.Verdict] {
    Dictionary(uniqueKeysWithValues: diff.rows.map { ($0.key.display, $0.verdict) })
  }

  /// The options of the agreement runs: the defaults, and significance alone deciding (no
  /// minimum change), where a p-value moved by the buckets shows most.
  static let agreementOptions: [(name: String, options: DiffOptions)] = {
    var significanceOnly = DiffOptions()
    significanceOnly.minRelativeChange = 0
    significanceOnly.minLatencyChangeNanoseconds = 0
    return [("default options", DiffOptions()), ("significance only", significanceOnly)]
  }()

  @Test(
    "verdicts on summary histograms agree with raw-row verdicts on seeded scenarios (>= 98%, never on a regression past 5x the bucket error)",
    arguments: [0, 1])
  func verdictsAgreeWithRawRows(optionsIndex: Int) async throws {
    let (optionsName, options) = Self.agreementOptions[optionsIndex]
    let seed: UInt64 = 0x5EED_15
    // Seconds of computation: on a thread of its own, off the cooperative pool (OffThePool).
    let (rows, disagreements, regressedDisagreements, largestShiftError) =
      try await OffThePool
      .run { Self.agreement(options: options, seed: seed) }
    let agreement = Double(rows - disagreements.count) / Double(rows)
    let seedText = "0x" + String(seed, radix: 16)
    print(
      "verdict agreement (\(optionsName)), seed \(seedText): \(rows - disagreements.count) of "
        + "\(rows) rows agree, \(disagreements.count) disagree; largest shift error "
        + "\(largestShiftError * 100)% of the baseline median. \(disagreements.joined(separator: "; "))"
    )
    #expect(rows == 2 * 4 * 6 * Self.shifts.count)
    #expect(agreement >= 0.98, "seed \(seedText): \(disagreements)")
    #expect(regressedDisagreements == 0, "seed \(seedText): \(disagreements)")
  }

  /// Raw and summary verdicts over the seeded scenarios: (rows, disagreements, disagreements
  /// on a regression past 5x the bucket error, the largest shift error).
  static func agreement(options: DiffOptions, seed: UInt64) -> (Int, [String], Int, Double) {
    var rows = 0
    var disagreements: [String] = []
    var regressedDisagreements = 0
    var largestShiftError = 0.0
    var index: UInt64 = 0
    for bimodal in [false, true] {
      for n in [50, 200, 1_000, 5_000] {
        for replicate in 0..<6 {
          index += 1
          let scenario = Self.scenario(n: n, bimodal: bimodal, seed: seed &+ index)
          let raw = Self.diff(
            baseline: scenario.baseline, candidate: scenario.candidate, summaries: false,
            options: options)
          let summarized = Self.diff(
            baseline: scenario.baseline, candidate: scenario.candidate, summaries: true,
            options: options)
          let verdicts = Self.verdicts(summarized)
          for row in raw.rows {
            rows += 1
            let key = row.key.display
            let other = summarized.rows.first { $0.key == row.key }
            // The shift's error relative to the baseline's median.
            if let exact = row.latencyShift, let estimate = other?.latencyShift,
              let median = row.baseline.percentiles.first?.nanoseconds
            {
              largestShiftError = max(largestShiftError, abs(estimate - exact) / median)
            }
            guard verdicts[key] != row.verdict else { continue }
            // "Checkout/shift20": the shift in percent.
            let shift = Double(Int(key.drop { !$0.isNumber }) ?? 0) / 100
            disagreements.append(
              "\(key) n \(n) \(bimodal ? "bimodal" : "log-normal") replicate \(replicate): raw "
                + "\(row.verdict.rawValue), summaries \(verdicts[key]?.rawValue ?? "-")")
            if (row.verdict == .regressed || verdicts[key] == .regressed)
              && shift >= 5 * ExponentialMapping.relativeError(scale: 5)
            {
              regressedDisagreements += 1
            }
          }
        }
      }
    }
    return (rows, disagreements, regressedDisagreements, largestShiftError)
  }

  /// A seeded scenario with a handler 50% slower and one unchanged, n values a side.
  static func slowedScenario(n: Int = 400, seed: UInt64 = 0x510) -> (
    baseline: [[(String, [Int64], Int)]], candidate: [[(String, [Int64], Int)]]
  ) {
    var generator = SeededGenerator(seed: seed)
    func values(_ shift: Double) -> [Int64] {
      durations(n, bimodal: false, shift: shift, using: &generator)
    }
    return (
      [[("steady", values(0), 0), ("slow", values(0), 0)]],
      [[("steady", values(0), 0), ("slow", values(0.5), 0)]]
    )
  }

  @Test("rows on summaries say their rank tests ran on histograms, and their percentiles by rank")
  func methodsSayHistograms() throws {
    let scenario = Self.slowedScenario()
    let summarized = Self.diff(
      baseline: scenario.baseline, candidate: scenario.candidate, summaries: true)
    let raw = Self.diff(
      baseline: scenario.baseline, candidate: scenario.candidate, summaries: false)
    let note = " on summary histograms (ties within a bucket, ±1.083%)"
    for row in summarized.rows {
      #expect(
        row.latencyTest?.method == MannWhitneyTest.method + ", Hodges-Lehmann shift" + note)
      #expect(row.baseline.percentileMethod == HistogramSample.percentileMethod(scale: 5))
      #expect(row.candidate.percentileMethod == HistogramSample.percentileMethod(scale: 5))
    }
    for row in raw.rows {
      #expect(row.latencyTest?.method == MannWhitneyTest.method + ", Hodges-Lehmann shift")
      #expect(row.baseline.percentileMethod == Percentile.method)
    }
    #expect(
      Self.verdicts(summarized) == ["Checkout/steady": .unchanged, "Checkout/slow": .regressed])
    #expect(Self.verdicts(raw) == Self.verdicts(summarized))
    // The histogram side's percentiles are its histogram's, by rank.
    let slow = try #require(summarized.rows.first { $0.key.display == "Checkout/slow" })
    let values = scenario.candidate[0][1].1
    let histogram = Self.histogram(values)
    #expect(
      slow.candidate.percentiles.map(\.nanoseconds) == [50, 95, 99].map(histogram.lowerPercentile))
    #expect(slow.candidate.percentiles.map(\.percentile) == [50, 95, 99])
  }

  @Test("stratified by test on summaries: van Elteren on each test's histograms, said so")
  func stratifiedOnHistograms() throws {
    var generator = SeededGenerator(seed: 0x57A7)
    // Two tests, one ten times slower than the other; the candidate's handler 40% slower in
    // both.
    func session(_ shift: Double) -> [(String, [Int64], Int)] {
      [("save", Self.durations(300, bimodal: false, shift: shift, using: &generator), 0)]
    }
    func slowTest(_ shift: Double) -> [(String, [Int64], Int)] {
      let tenfold = (1 + shift) * 10 - 1
      return [("save", Self.durations(300, bimodal: false, shift: tenfold, using: &generator), 0)]
    }
    let baseline = [session(0), slowTest(0), session(0), slowTest(0)]
    let candidate = [session(0.4), slowTest(0.4)]
    let tests: [String?] = ["fast", "slow"]
    let summarized = Self.diff(
      baseline: baseline, candidate: candidate, summaries: true, tests: tests)
    let raw = Self.diff(baseline: baseline, candidate: candidate, summaries: false, tests: tests)
    #expect(summarized.stratifiedByTest && raw.stratifiedByTest)
    let row = try #require(summarized.rows.first)
    let rawRow = try #require(raw.rows.first)
    #expect(row.strata == 2)
    #expect(
      row.latencyTest?.method
        == StratifiedRankTest.method + ", Hodges-Lehmann shift"
        + HistogramSample.methodNote(scale: 5))
    #expect(row.verdict == rawRow.verdict)
    #expect(row.verdict == .regressed)
    let shift = try #require(row.latencyShift)
    let exact = try #require(rawRow.latencyShift)
    #expect(abs(shift - exact) <= 0.03 * abs(exact), "shift \(shift) against \(exact)")
  }

  @Test("a side mixing summaries and raw rows is never combined: its latency is not compared")
  func mixedSourcesAreNotCombined() throws {
    let scenario = Self.slowedScenario()
    var diff = BaselineDiff(grouping: .handler, options: DiffOptions())
    // The baseline from raw rows, the candidate from summaries, each handler 10% failing more
    // in the candidate for "slow".
    diff.add(
      SessionTallies(
        session: Self.session(1),
        groups: scenario.baseline[0].map { Self.tally($0.0, $0.1, summaries: false) }),
      side: .baseline)
    diff.add(
      SessionTallies(
        session: Self.session(2),
        groups: scenario.candidate[0].map {
          Self.tally($0.0, $0.1, failed: $0.0 == "slow" ? 80 : 0, summaries: true)
        }),
      side: .candidate)
    diff.finish()
    for row in diff.rows {
      #expect(row.latencyTest == nil, "\(row.key.display)")
      #expect(row.latencyShift == nil)
      #expect(row.detectable.latencyShift == nil)
      #expect(row.reasons.contains(RowDraft.mixedMethod))
      #expect(row.baseline.percentiles.allSatisfy { $0.nanoseconds == nil })
      #expect(row.baseline.percentileMethod == RowDraft.mixedMethod)
    }
    // The error rates still count: 80 of 400 failures against none.
    #expect(Self.verdicts(diff) == ["Checkout/steady": .unchanged, "Checkout/slow": .regressed])
    let slow = try #require(diff.rows.first { $0.key.display == "Checkout/slow" })
    #expect(slow.causes == [.errorRate])
  }

  @Test(
    "a pool's histograms merge exactly; a tally with both kinds, or unmergeable histograms, is mixed"
  )
  func poolSources() throws {
    var generator = SeededGenerator(seed: 0x9001)
    let a = Self.durations(500, bimodal: true, shift: 0, using: &generator)
    let b = Self.durations(700, bimodal: true, shift: 0, using: &generator)
    var pool = SidePool()
    pool.add(Self.tally("h", a, summaries: true), test: "")
    pool.add(Self.tally("h", b, summaries: true), test: "")
    #expect(pool.source == .summaries)
    #expect(pool.pooledHistogram == Self.histogram(a + b))
    // Across strata (tests) too.
    var byTest = SidePool()
    byTest.add(Self.tally("h", a, summaries: true), test: "x")
    byTest.add(Self.tally("h", b, summaries: true), test: "y")
    #expect(byTest.pooledHistogram == Self.histogram(a + b))
    #expect(byTest.strata["x"]?.histogram == Self.histogram(a))
    #expect(pool.sortedDurations.isEmpty)

    var raw = SidePool()
    raw.add(Self.tally("h", a, summaries: false), test: "")
    #expect(raw.source == .rawRows)
    #expect(raw.pooledHistogram == nil)

    var both = Self.tally("h", a, summaries: true)
    both.durations = a
    var mixedTally = SidePool()
    mixedTally.add(both, test: "")
    #expect(mixedTally.source == .mixed)

    var mixedKinds = pool
    mixedKinds.add(Self.tally("h", b, summaries: false), test: "x")
    #expect(mixedKinds.source == .mixed)
    #expect(mixedKinds.pooledHistogram == nil)

    var shapes = SidePool()
    shapes.add(Self.tally("h", a, summaries: true), test: "")
    shapes.add(Self.tally("h", b, summaries: true, maximumScale: 3), test: "")
    #expect(shapes.source == .mixed)

    // Absorbing a raw pool into a summarized one (a moved registration) mixes them too.
    var moved = pool
    moved.absorb(raw)
    #expect(moved.source == .mixed)
  }

  @Test(
    "check --baseline on summaries: the slowed handler breaches as on raw rows, its method says histograms"
  )
  func gateOnHistograms() throws {
    let scenario = Self.slowedScenario()
    for summaries in [false, true] {
      let diff = Self.diff(
        baseline: scenario.baseline, candidate: scenario.candidate, summaries: summaries)
      let checks = BaselineGate.checks(
        pooled: diff, perSession: [], failureLimit: 1, quarantined: { _ in nil })
      let latency = checks.filter { $0.metric == .latencyVersusBaseline }
      #expect(
        Dictionary(uniqueKeysWithValues: latency.map { ($0.subject, $0.verdict) }) == [
          "Checkout/steady": .pass, "Checkout/slow": .breach,
        ], "summaries \(summaries)")
      for check in latency {
        #expect(
          check.methodDetail?.hasSuffix(HistogramSample.methodNote(scale: 5)) == summaries,
          "\(check.subject)")
      }
    }
  }
}
