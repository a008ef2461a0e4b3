import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveQuery

@Suite("Change points: E-divisive means with Hunter's test")
struct ChangePointTests {
  @Test(
    "Student's t two-sided p matches scipy's 2 * t.sf(|t|, df)",
    arguments: [
      (2.5, 10.0, 0.031446844236608776), (0.3, 3.0, 0.783763292039919),
      (8.0, 48.0, 2.2021046133808798e-10), (25.0, 98.0, 2.561362483022113e-44),
      (1.0, 1.0, 0.49999999999999956), (-3.2, 7.5, 0.01373515386240826),
    ])
  func studentTMatchesScipy(t: Double, degrees: Double, scipy: Double) {
    let p = StudentT.twoSidedP(t, degrees: degrees)
    #expect(abs(p - scipy) <= 1e-12 * scipy, "t=\(t) df=\(degrees): \(p) against \(scipy)")
  }

  @Test(
    "the regularized incomplete beta matches scipy.special.betainc",
    arguments: [
      (0.3, 2.0, 5.0, 0.5798250000000003), (0.9, 0.5, 0.5, 0.7951672353008665),
      (0.01, 24.0, 0.5, 1.151204197849651e-49), (0.7, 30.0, 2.5, 0.0005435460782246994),
    ])
  func betaMatchesScipy(x: Double, a: Double, b: Double, scipy: Double) {
    let value = RegularizedBeta.value(x, a: a, b: b)
    #expect(abs(value - scipy) <= 1e-12 * scipy, "I_\(x)(\(a), \(b)) = \(value), not \(scipy)")
  }

  @Test(
    "t quantiles match scipy's t.isf (and the exact root for df = 2)",
    arguments: [
      (0.025, 4.0, 2.7764451051977996), (0.025, 29.0, 2.0452296421327034),
      // scipy's t.isf(0.001, 2) is 22.32712476997543, 1.4e-10 off: this is the root of the
      // closed form 1/2 · (1 − t/√(t² + 2)) = 0.001 (mpmath, 40 digits).
      (0.001, 2.0, 22.327124770119875),
      // df = 1 is Cauchy: tan(π(1/2 − 0.025)) (scipy's isf says 12.706204736432102).
      (0.025, 1.0, 12.706204736174696), (0.3, 200.0, 0.5252373340154749),
    ])
  func tQuantilesMatchScipy(tail: Double, degrees: Double, scipy: Double) {
    let t = StudentT.inverseSurvival(tail, degrees: degrees)
    #expect(abs(t - scipy) <= 1e-12 * scipy, "isf(\(tail), \(degrees)) = \(t), not \(scipy)")
  }

  @Test("Q̂ on a hand-worked split: [0,0,0 | 10,10,10] is 2/6 · 9 · 10 = 30, the best split")
  func energyStatisticWorkedExample() {
    let statistic = EnergyStatistic([0, 0, 0, 10, 10, 10])
    #expect(statistic.q(start: 0, tau: 3, end: 6) == 30)
    // X = [0, 0], Y = [0, 10]: 2/4 · 20 − 2·2/(4·1) · 0 − 2·2/(4·1) · 10 = 0.
    #expect(statistic.q(start: 0, tau: 2, end: 4) == 0)
    let candidate = statistic.candidate(in: 0..<6)
    #expect(candidate.tau == 3 && candidate.q == 30)
  }

  @Test("Q̂ from the prefix-sum table equals Matteson and James's definition summed directly")
  func energyStatisticMatchesDefinition() {
    let seed: UInt64 = 0xED1_715
    var generator = SeededGenerator(seed: seed)
    let x = (0..<24).map { _ in Double.random(in: -5...5, using: &generator).rounded() }
    let statistic = EnergyStatistic(x)
    for start in [0, 3] {
      for tau in (start + 1)..<23 {
        for end in (tau + 1)...24 {
          let left = x[start..<tau]
          let right = x[tau..<end]
          let n = Double(left.count)
          let m = Double(right.count)
          var between = 0.0
          for a in left { for b in right { between += abs(a - b) } }
          var withinLeft = 0.0
          for i in left.indices {
            for k in left.indices where k > i { withinLeft += abs(x[i] - x[k]) }
          }
          var withinRight = 0.0
          for i in right.indices {
            for k in right.indices where k > i { withinRight += abs(x[i] - x[k]) }
          }
          let direct =
            2 / (n + m) * between - (n > 1 ? 2 * m / ((n + m) * (n - 1)) * withinLeft : 0)
            - (m > 1 ? 2 * n / ((n + m) * (m - 1)) * withinRight : 0)
          let fast = statistic.q(start: start, tau: tau, end: end)
          #expect(
            abs(fast - direct) <= 1e-9 * max(1, abs(direct)), "seed \(seed): \(start) \(tau) \(end)"
          )
        }
      }
    }
  }

  /// The series and answers of `Fixtures/otava-change-points.json`.
  struct OtavaFixture: Decodable {
    struct Case: Decodable {
      struct Point: Decodable {
        struct Retested: Decodable {
          let pValue: Double
          let meanBefore: Double
          let meanAfter: Double
        }
        /// The first index after the change.
        let index: Int
        /// As Otava reports it (stale where its merge left it so).
        let pValue: Double
        /// Otava's t-test rerun on the final neighbouring segments.
        let retested: Retested
      }
      let name: String
      let seed: Int
      let minMagnitude: Double
      let planted: [Int]
      let values: [Double]
      let otava: [Point]
    }
    let cases: [Case]

    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/otava-change-points.json")

    static func load() throws -> OtavaFixture {
      try JSONDecoder().decode(OtavaFixture.self, from: Data(contentsOf: url))
    }
  }

  @Test("the same change points at the same indices as Apache Otava 0.8.0 on 24 seeded series")
  func matchesOtava() throws {
    let fixture = try OtavaFixture.load()
    #expect(fixture.cases.count >= 20)
    #expect(fixture.cases.contains { $0.otava.isEmpty && $0.planted.isEmpty })
    for item in fixture.cases {
      var options = ChangePointSearch.Options()
      options.minMagnitude = item.minMagnitude
      let found = ChangePointSearch(options: options).changePoints(in: item.values)
      #expect(
        found.map(\.index) == item.otava.map(\.index),
        "\(item.name) (seed \(item.seed)): \(found.map(\.index)) against Otava's \(item.otava.map(\.index))"
      )
      // Compared with Otava's test on the final segments: Otava's merge can leave the point
      // before a removed one with its old segments' figures (see ChangePointSearch).
      for (point, otava) in zip(found, item.otava) where point.index == otava.index {
        let reference = otava.retested
        let p = point.comparison.pValue
        #expect(
          abs(p - reference.pValue) <= 1e-7 * reference.pValue + 1e-300,
          "\(item.name): p \(p) against Otava's \(reference.pValue)")
        #expect(
          abs(point.comparison.before.mean - reference.meanBefore) <= 1e-9
            * abs(reference.meanBefore))
        #expect(
          abs(point.comparison.after.mean - reference.meanAfter) <= 1e-9 * abs(reference.meanAfter))
      }
    }
  }

  @Test(
    "the fixture is Apache Otava 0.8.0's answer (scripts/otava-change-points.py check)",
    .enabled(
      if: Proofs.run(needs: .pythonModule("otava", package: "apache-otava")),
      "needs apache-otava (scripts/requirements-otava.txt)"))
  func fixtureIsOtavasAnswer() throws {
    let script = ReadmeSnippet.root.appendingPathComponent("scripts/otava-change-points.py").path
    let run = try ChildProcess.run(
      PythonModule.interpreter, [script, "check", OtavaFixture.url.path], timeout: WaitBounds.hang)
    #expect(!run.timedOut && run.result.status == 0, "\(run.result.output)")
  }
}

@Suite("Change points: A/A simulation")
struct ChangePointFalsePositiveTests {
  /// A standard normal draw (Box–Muller), from `generator`.
  static func normal(_ generator: inout SeededGenerator) -> Double {
    let u = Double.random(in: Double.ulpOfOne..<1, using: &generator)
    let v = Double.random(in: 0..<1, using: &generator)
    return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
  }

  /// 200 seeded series of 100 commits with no change: normal noise of 3% around 1,000.
  static func series() -> [(seed: UInt64, values: [Double])] {
    (UInt64(1)...200).map { seed in
      var generator = SeededGenerator(seed: seed)
      return (seed, (0..<100).map { _ in 1_000 * (1 + 0.03 * normal(&generator)) })
    }
  }

  @Test("the test alone (no minimum change) finds at most --max-p false change points per commit")
  func falsePositivesPerCommitAtMostMaxP() {
    var options = ChangePointSearch.Options()
    options.minMagnitude = 0
    var found: [(seed: UInt64, index: Int)] = []
    for (seed, values) in Self.series() {
      found += ChangePointSearch(options: options).changePoints(in: values).map { (seed, $0.index) }
    }
    let commits = 200 * 100
    print("A/A: \(found.count) false change points in \(commits) commits (max-p \(options.maxP))")
    #expect(
      Double(found.count) <= options.maxP * Double(commits),
      "false change points (seed, index): \(found)")
  }

  @Test("with the defaults of sleeve changes (5%, 3 commits a level), ≤ 1 series in 100 has one")
  func falseSeriesAtTheDefaults() {
    var options = ChangePointSearch.Options()
    options.minMagnitude = 0.05
    options.minimumSegment = 3
    var seeds: [UInt64] = []
    for (seed, values) in Self.series()
    where !ChangePointSearch(options: options).changePoints(in: values).isEmpty {
      seeds.append(seed)
    }
    print("A/A at the defaults: \(seeds.count) of 200 series show a false change point")
    #expect(seeds.count <= 2, "seeds with a false change point: \(seeds)")
  }
}

@Suite("Change points: error rates by their counts")
struct ChangePointCountTests {
  @Test(
    "Fisher's exact test matches scipy.stats.fisher_exact (two-sided)",
    arguments: [
      (4, 150, 49, 9_800, 0.008197653902615837), (10, 100, 2, 100, 0.03304010932418497),
      (0, 50, 5, 50, 0.05628449442882433), (3, 1_000, 3, 1_000, 1.0),
      (40, 1_000, 5, 1_000, 5.798598501127194e-08),
    ])
  func fisherMatchesScipy(failed1: Int, ran1: Int, failed2: Int, ran2: Int, scipy: Double) {
    let p = FisherExactTest.twoSidedP(failed1: failed1, ran1: ran1, failed2: failed2, ran2: ran2)
    #expect(abs(p - scipy) <= 1e-9 * scipy, "\(failed1)/\(ran1) against \(failed2)/\(ran2): \(p)")
  }

  @Test(
    "huge tables: exact for sparse failures among billions (exact rationals), the z-test past 100,000 events (norm.sf); Int.max never traps"
  )
  func hugeCounts() {
    // Sparse failures among 5 billion invocations: the exact sum in rationals (Python's
    // fractions.Fraction over math.comb) is 0.005321030003868361; scipy's fisher_exact says
    // 0.0053210266923625, 6e-7 off. 40 of 100,000 against 5: scipy 1.16's fisher_exact.
    for (table, reference) in [
      ((4, 150_000_000, 20, 4_850_000_000), 0.005321030003868361),
      ((40, 100_000, 5, 100_000), 7.85480166565255e-08),
    ] {
      let p = FisherExactTest.twoSidedP(
        failed1: table.0, ran1: table.1, failed2: table.2, ran2: table.3)
      #expect(abs(p - reference) <= 1e-9 * reference, "\(table): \(p)")
    }
    let z = FisherExactTest.twoSidedP(
      failed1: 2_000_000, ran1: 100_000_000, failed2: 2_030_000, ran2: 100_000_000)
    // 2 · norm.sf(|p1 − p2| / √(p(1 − p)(1/n1 + 1/n2))), pooled p: scipy 1.16 (the exact
    // test gives 1.7074722797047196e-51: the same decision at any level).
    #expect(abs(z - 1.6962416632198848e-51) <= 1e-9 * 1.6962416632198848e-51, "\(z)")
    let hostile = FisherExactTest.twoSidedP(
      failed1: Int.max, ran1: Int.max, failed2: 0, ran2: Int.max)
    #expect(hostile >= 0 && hostile <= 1)
    let counts = [ChangePointSearch.Counts](
      repeating: .init(failed: Int.max, ran: Int.max), count: 20)
    let found = ChangePointSearch().changePoints(
      in: [Double](repeating: 1, count: 20), counts: counts)
    #expect(found.isEmpty)
  }

  @Test("three commits with one or two failures in 50 each are not a change; a real rise is")
  func sparseFailuresNeedTheirCounts() {
    // 97 commits of 50 invocations, a failure in every fifth (0.4%), then three commits with
    // 1, 2 and 1 failures: the t-test alone calls the last three a new level (Otava 0.8.0
    // does, at index 97, p = 7.4e-6); their counts do not (4 in 150 against 20 in 4,850:
    // Fisher's p = 0.005).
    var failed = (0..<100).map { $0 % 5 == 0 ? 1 : 0 }
    failed[97] = 1
    failed[98] = 2
    failed[99] = 1
    let counts = failed.map { ChangePointSearch.Counts(failed: $0, ran: 50) }
    let rates = failed.map { Double($0) / 50 }
    var options = ChangePointSearch.Options()
    options.magnitude = .absolute
    options.minMagnitude = 0.01
    let search = ChangePointSearch(options: options)
    #expect(search.changePoints(in: rates).map(\.index) == [97], "the t-test alone")
    #expect(search.changePoints(in: rates, counts: counts).isEmpty)
    // From commit 60 on, 3 failures in 50 (6%): a change the counts confirm.
    for index in 60..<100 { failed[index] = 3 }
    let risen = failed.map { ChangePointSearch.Counts(failed: $0, ran: 50) }
    let found = search.changePoints(in: failed.map { Double($0) / 50 }, counts: risen)
    #expect(found.map(\.index) == [60])
  }
}
