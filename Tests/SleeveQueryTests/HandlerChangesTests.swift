import Foundation
import SleeveQuery
import SleeveTestSupport
import Testing

@Suite("Change points over recorded commits")
struct HandlerChangesTests {
  /// `commits` commits on main, one session each (plus one session without a commit, and a
  /// second session of commit 3): `charge` gets `slowdown` times slower from commit
  /// `slowAt`, `quote` fails 8% instead of 1% from commit `failsAt`, `steady` never changes.
  static func history(
    seed: UInt64, commits: Int = 30, slowAt: Int = 18, slowdown: Double = 1.3, failsAt: Int = 11
  ) throws -> FixtureDatabase {
    var random = SeededGenerator(seed: seed)
    let fixture = try FixtureDatabase()
    var id: Int64 = 0
    func session(commit: Int?) throws {
      id += 1
      try fixture.session(id, name: "main run", startedSeconds: 1_700_000_000 + id * 60)
      try fixture.context(session: id, commit: commit.map { "c\($0)abcdef" }, branch: "main")
      let handlers: [(String, Int64, Double, Double)] = [
        ("charge", 2_000_000, commit.map { $0 >= slowAt ? slowdown : 1 } ?? 1, 0.01),
        ("quote", 500_000, 1, commit.map { $0 >= failsAt ? 0.08 : 0.01 } ?? 0.01),
        ("steady", 1_000_000, 1, 0.01),
      ]
      for (index, (name, median, factor, rate)) in handlers.enumerated() {
        let number = Int64(index + 1)
        try fixture.handler(
          session: id, number: number, name: name, control: "CheckoutView", identifier: name,
          site: "Checkout.swift:\(10 + index)")
        let samples = (0..<400).map { _ in
          let noise = (0..<3).map { _ in Double.random(in: -1...1, using: &random) }.reduce(0, +)
          let failed = Double.random(in: 0..<1, using: &random) < rate
          return FixtureDatabase.Sample(
            Int64(Double(median) * factor * exp(0.3 * noise)), failed: failed)
        }
        try fixture.samples(session: id, handler: number, samples)
      }
    }
    for commit in 0..<commits {
      try session(commit: commit)
      if commit == 3 { try session(commit: commit) }
    }
    try session(commit: nil)
    return fixture
  }

  static func all() -> QueryFilter {
    var filter = QueryFilter()
    filter.session = .all
    return filter
  }

  @Test("a planted slowdown and a planted error-rate rise are found at their exact commits")
  func plantedChangesAreFound() throws {
    let seed: UInt64 = 0xC4A_6E
    let fixture = try Self.history(seed: seed)
    let answer = try QueryDatabase(path: fixture.path).changes(
      matching: Self.all(), options: ChangeOptions())
    let found = answer.changes.map { ($0.key.display, $0.metric, $0.firstCommit.commit) }
    #expect(found.count == 2, "seed \(seed): \(found)")
    // Newest first: the slowdown (commit 18) before the error rate (commit 11).
    let slower = try #require(answer.changes.first)
    #expect(slower.key == .handler(control: "CheckoutView", name: "charge"), "seed \(seed)")
    #expect(slower.metric == .p50)
    #expect(slower.firstCommit.commit == "c18abcdef" && slower.commitBefore.commit == "c17abcdef")
    #expect(slower.isLatest && slower.site == "Checkout.swift:10")
    let relative = try #require(slower.relativeChange)
    #expect(abs(relative - 0.3) < 0.05, "seed \(seed): \(relative)")
    #expect(slower.comparison.before.count == 18 && slower.comparison.after.count == 12)
    #expect(slower.comparison.pValue < 0.001)
    let failing = try #require(answer.changes.last)
    #expect(failing.key == .handler(control: "CheckoutView", name: "quote"))
    #expect(failing.metric == .errorRate && failing.firstCommit.commit == "c11abcdef")
    #expect(abs(failing.comparison.after.mean - failing.comparison.before.mean - 0.07) < 0.02)
    // Commit 3's two sessions are one point; the session without a commit is set aside.
    let charge = try #require(answer.series.first { $0.key == slower.key && $0.metric == .p50 })
    #expect(charge.points.count == 30)
    #expect(charge.points[3].sessions.count == 2 && charge.points[3].ran == 800)
    #expect(answer.sessionsWithoutCommit == [32])
    #expect(answer.commits.count == 30 && answer.sessions.count == 31)
  }

  @Test("a change under --min-change is not one; a minimum under the histogram's error is raised")
  func minimumChange() throws {
    let seed: UInt64 = 0xC4A_6F
    let fixture = try Self.history(seed: seed, slowdown: 1.03)
    var options = ChangeOptions()
    options.metrics = [.p50]
    let database = try QueryDatabase(path: fixture.path)
    let atDefault = try database.changes(matching: Self.all(), options: options).changes
    #expect(
      atDefault.isEmpty,
      "seed \(seed): \(atDefault.map { ($0.firstCommit.commit, $0.relativeChange) })")
    options.minLatencyChange = 0.02
    let exact = try database.changes(matching: Self.all(), options: options)
    #expect(exact.changes.map(\.firstCommit.commit) == ["c18abcdef"], "seed \(seed)")
    #expect(exact.relativeError == nil)
    #expect(options.search(for: .p50, relativeError: nil).options.minMagnitude == 0.02)
    // From summaries the floor is (1 + e)/(1 − e) − 1 = 2.19% at ±1.083%.
    let floor = options.search(for: .p50, relativeError: 0.010_830_2).options.minMagnitude
    #expect(abs(floor - 0.021_897) < 1e-5, "\(floor)")
    options.minLatencyChange = 0.01
    #expect(options.search(for: .p50, relativeError: nil).options.minMagnitude == 0.01)
  }

  @Test("no change on a history where nothing changed")
  func steadyHistory() throws {
    let seed: UInt64 = 0xC4A_70
    let fixture = try Self.history(seed: seed, slowAt: 1_000, failsAt: 1_000)
    var options = ChangeOptions()
    options.metrics = ChangeMetric.allCases
    let answer = try QueryDatabase(path: fixture.path).changes(
      matching: Self.all(), options: options)
    #expect(answer.changes.isEmpty, "seed \(seed): \(answer.changes.map(\.key.display))")
    #expect(answer.series.count == 12)
  }
}

@Suite("A baseline since each handler's last change (since=change)")
struct SinceChangeBaselineTests {
  @Test("a run at main's new level is unchanged against the runs since the change, not regressed")
  func judgedAgainstTheNewLevel() throws {
    let seed: UInt64 = 0x51C_E0
    let fixture = try HandlerChangesTests.history(seed: seed)
    let database = try QueryDatabase(path: fixture.path)
    let sessions = try database.sessions(matching: HandlerChangesTests.all())
      .filter { $0.context.run.commit != nil }
    let baseline = Array(sessions.dropLast())
    let candidate = [sessions.last!]
    let charge = GroupKey.handler(control: "CheckoutView", name: "charge")
    func verdict(_ baselines: HandlerBaselines?) throws -> DiffRow.Verdict? {
      try database.diff(
        baseline: baseline, candidate: candidate, filter: HandlerChangesTests.all(),
        by: .handler, options: DiffOptions(), baselines: baselines
      ).rows.first { $0.key == charge }?.verdict
    }
    // The whole of main mixes the levels before and after the slowdown at commit 18.
    #expect(try verdict(nil) == .regressed, "seed \(seed)")
    let baselines = try database.handlerBaselines(
      of: baseline, filter: HandlerChangesTests.all(), minSamples: 30)
    let start = try #require(baselines.starts[charge])
    #expect(start.change?.firstCommit.commit == "c18abcdef" && !start.fellBack, "seed \(seed)")
    // Commits 18 to 28, one session each.
    #expect(start.sessions?.count == 11)
    #expect(try verdict(baselines) == .unchanged, "seed \(seed)")
    #expect(
      baselines.notes.contains(
        "CheckoutView/charge: since its p50 change at commit c18abcdef (11 sessions)"),
      "\(baselines.notes)")
    // A handler without a change keeps every baseline session.
    let steady = try #require(baselines.starts[.handler(control: "CheckoutView", name: "steady")])
    #expect(steady.change == nil && steady.sessions == nil)
    #expect(baselines.includes(1, for: steady.key) && !baselines.includes(1, for: charge))
  }

  @Test("too few invocations since the change: the last 20 sessions, and a note that says so")
  func fallsBackToTheLast20() throws {
    let seed: UInt64 = 0x51C_E1
    let fixture = try HandlerChangesTests.history(seed: seed)
    let database = try QueryDatabase(path: fixture.path)
    let baseline = try database.sessions(matching: HandlerChangesTests.all())
    // 12 commits since the change, 400 invocations each: 4,800 < 5,000.
    let baselines = try database.handlerBaselines(
      of: baseline, filter: HandlerChangesTests.all(), minSamples: 5_000)
    let start = try #require(baselines.starts[.handler(control: "CheckoutView", name: "charge")])
    #expect(start.fellBack, "seed \(seed)")
    #expect(start.sessions == Set(baseline.suffix(20).map(\.id)))
    #expect(
      baselines.notes.contains(
        "CheckoutView/charge: fewer invocations since its p50 change at commit c18abcdef than "
          + "--min-samples; judged against the last 20 sessions too (20 in all)"),
      "\(baselines.notes)")
  }

  @Test("a rerun of an old commit after the change stays on the old level: sessions by commit")
  func rerunOfAnOldCommitIsNotAfterTheChange() throws {
    let seed: UInt64 = 0x51C_E2
    let fixture = try HandlerChangesTests.history(seed: seed)
    // Commit 10 (before the slowdown at 18) run again, started after every other session.
    try fixture.session(40, name: "rerun", startedSeconds: 1_800_000_000)
    try fixture.context(session: 40, commit: "c10abcdef", branch: "main")
    try fixture.handler(
      session: 40, number: 1, name: "charge", control: "CheckoutView", identifier: "charge",
      site: "Checkout.swift:10")
    try fixture.samples(
      session: 40, handler: 1, (0..<400).map { .init(2_000_000 + Int64($0), failed: false) })
    let database = try QueryDatabase(path: fixture.path)
    let baseline = try database.sessions(matching: HandlerChangesTests.all())
    let baselines = try database.handlerBaselines(
      of: baseline, filter: HandlerChangesTests.all(), minSamples: 30)
    let start = try #require(baselines.starts[.handler(control: "CheckoutView", name: "charge")])
    #expect(start.change?.firstCommit.commit == "c18abcdef", "seed \(seed)")
    #expect(start.sessions?.contains(40) == false, "the rerun of commit 10 is not after the change")
    #expect(start.sessions?.count == 12, "commits 18 to 29")
  }
}
