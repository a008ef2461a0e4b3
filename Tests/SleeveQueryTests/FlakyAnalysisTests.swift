import SleeveQuery
import SleeveTestSupport
import Testing

/// `FlakyAnalysis` over seeded synthetic histories (`FlakyHistory`) whose verdicts are known.
@Suite("Flaky handlers")
struct FlakyAnalysisTests {
  static let seeds: [UInt64] = [0x5EED_0001, 0xF1A4E, 0xC0FFEE]

  static let submit = GroupKey.handler(control: "CheckoutView", name: "submit")
  static let paymentSubmit = GroupKey.handler(control: "PaymentView", name: "submit")
  static let charge = GroupKey.handler(control: "CheckoutView", name: "charge")
  static let validate = GroupKey.handler(control: "CheckoutView", name: "validate")
  static let refresh = GroupKey.handler(control: "CheckoutView", name: "refresh")
  static let loader = GroupKey.handler(control: "CheckoutView", name: "loader")

  static func analyse(
    _ history: FlakyHistory, options: FlakyAnalysis.Options = .init(),
    narrow: (inout QueryFilter) -> Void = { _ in }
  ) throws -> FlakyAnalysis {
    let database = try QueryDatabase(path: history.fixture.path)
    var filter = QueryFilter()
    filter.session = .all
    narrow(&filter)
    let tallies = try database.tallies(
      of: try database.sessions(matching: filter), filter: filter, by: .handler,
      collectDurations: false)
    return FlakyAnalysis(tallies, options: options)
  }

  static func finding(_ analysis: FlakyAnalysis, _ key: GroupKey) throws -> FlakyAnalysis.Finding {
    try #require(analysis.findings.first { $0.key == key }, "no finding for \(key.display)")
  }

  @Test(
    "a handler whose sessions of one commit disagree is flaky, with its flake rate, sessions, first and last seen and failure kinds",
    arguments: seeds)
  func flaky(seed: UInt64) throws {
    let history = try FlakyHistory(seed: seed)
    let analysis = try Self.analyse(history)
    let submit = try Self.finding(analysis, Self.submit)
    #expect(submit.verdict == .flaky, "seed \(seed)")
    #expect(submit.judgedGroups == 6, "seed \(seed)")
    #expect(
      submit.flakyGroups.map(\.group.commit)
        == [1, 4].map { FlakyHistory.commits[$0].lowercased() })
    #expect(submit.flakeRate == 2.0 / 6.0, "seed \(seed)")
    #expect(submit.sessions == [5, 6, 15, 16], "seed \(seed)")
    #expect(submit.failingSessions == [5, 16], "seed \(seed)")
    #expect(submit.firstSeenUnixNanoseconds == history.started[5], "seed \(seed)")
    #expect(submit.lastSeenUnixNanoseconds == history.started[16], "seed \(seed)")
    let failures = (history.failures[5]?[1] ?? 0) + (history.failures[16]?[1] ?? 0)
    #expect(
      submit.failureKinds
        == [FailureKind(type: "CheckoutError", message: "timeout after 1 ms"): failures],
      "seed \(seed)")
    #expect(submit.site == "CheckoutView.swift:10")
    #expect(analysis.findings(.flaky).map(\.key) == [Self.submit], "seed \(seed)")
  }

  @Test(
    "a handler failing most of its runs in every session of its last commits is broken, not flaky; under a higher share it is not",
    arguments: seeds)
  func broken(seed: UInt64) throws {
    let history = try FlakyHistory(seed: seed)
    let charge = try Self.finding(try Self.analyse(history), Self.charge)
    #expect(charge.verdict == .broken, "seed \(seed)")
    #expect(charge.sessions == [10, 11, 12, 13, 15, 16, 17], "seed \(seed)")
    #expect(charge.failingSessions == charge.sessions, "seed \(seed)")
    var strict = FlakyAnalysis.Options()
    strict.brokenShare = 0.95
    let notBroken = try Self.finding(try Self.analyse(history, options: strict), Self.charge)
    #expect(notBroken.verdict == .consistent, "seed \(seed)")
    var longer = FlakyAnalysis.Options()
    longer.brokenCommits = 5  // c2 ran it clean
    #expect(
      try Self.finding(try Self.analyse(history, options: longer), Self.charge).verdict
        == .consistent, "seed \(seed)")
  }

  @Test(
    "a handler failing at a steady low rate in every run is neither flaky nor broken",
    arguments: seeds)
  func steadyLowRate(seed: UInt64) throws {
    let history = try FlakyHistory(seed: seed)
    let validate = try Self.finding(try Self.analyse(history), Self.validate)
    #expect(validate.verdict == .consistent, "seed \(seed)")
    #expect(validate.flakeRate == 0, "seed \(seed)")
    #expect(validate.failed > 0, "seed \(seed)")
    #expect((validate.errorRate ?? 1) < 0.1, "seed \(seed)")
  }

  @Test(
    "a flaky handler whose last runs were clean is cleared; with a longer clear-after it is still flaky",
    arguments: seeds)
  func cleared(seed: UInt64) throws {
    let history = try FlakyHistory(seed: seed)
    let refresh = try Self.finding(try Self.analyse(history), Self.refresh)
    #expect(refresh.verdict == .cleared, "seed \(seed)")
    #expect(refresh.sessions == [1, 2, 3], "seed \(seed)")
    #expect(refresh.failingSessions == [1], "seed \(seed)")
    var patient = FlakyAnalysis.Options()
    patient.clearAfter = 15  // it ran clean in 14 sessions since
    #expect(
      try Self.finding(try Self.analyse(history, options: patient), Self.refresh).verdict
        == .flaky, "seed \(seed)")
  }

  @Test("the window judges only the most recent commits, by their latest session")
  func window() throws {
    let history = try FlakyHistory(seed: 7)
    var options = FlakyAnalysis.Options()
    options.window = 3
    let analysis = try Self.analyse(history, options: options)
    #expect(analysis.commits == [5, 4, 3].map { FlakyHistory.commits[$0].lowercased() })
    #expect(analysis.sessions == [10, 11, 12, 13, 15, 16, 17])
    #expect(analysis.sessionsOutsideWindow == [1, 2, 3, 5, 6, 7, 8, 9])
    #expect(try Self.finding(analysis, Self.refresh).verdict == .consistent)
    let submit = try Self.finding(analysis, Self.submit)
    #expect(submit.verdict == .flaky)
    #expect(submit.flakeRate == 1.0 / 3.0)
    #expect(analysis.notes.contains { $0.contains("8 sessions of 3 older commits fall outside") })
  }

  @Test(
    "sessions of one commit are compared per test where they record one, and by commit alone where they do not"
  )
  func groupedByCommitAndTest() throws {
    let withTests = try Self.analyse(try FlakyHistory(seed: 11))
    let loader = try Self.finding(withTests, Self.loader)
    #expect(loader.verdict == .consistent)
    #expect(loader.judgedGroups == 2)
    let withoutTests = try Self.analyse(try FlakyHistory(seed: 11, recordTests: false))
    let merged = try Self.finding(withoutTests, Self.loader)
    #expect(merged.verdict == .flaky)
    #expect(
      merged.flakyGroups.map(\.group) == [
        FlakyAnalysis.RunGroup(commit: FlakyHistory.commits[3].lowercased(), test: nil)
      ])
    #expect(try Self.finding(withoutTests, Self.submit).flakeRate == 2.0 / 5.0)
    #expect(withTests.notes.contains { $0.contains("within their commit and the test") })
    #expect(withoutTests.notes.contains { $0.contains("none recorded a test") })
  }

  @Test(
    "sessions without a commit are not grouped or judged, a note says so, and a handler name on two controls is two handlers"
  )
  func sessionsWithoutCommit() throws {
    let history = try FlakyHistory(seed: 13)
    let analysis = try Self.analyse(history)
    #expect(analysis.sessionsWithoutCommit == [4, 14])
    #expect(!analysis.sessions.contains(4))
    // PaymentView's submit failed only in session 4, which records no commit.
    let payment = try Self.finding(analysis, Self.paymentSubmit)
    #expect(payment.verdict == .consistent)
    #expect(payment.failed == 0)
    #expect(try Self.finding(analysis, Self.submit).verdict == .flaky)
    #expect(analysis.notes.contains { $0.hasPrefix("2 sessions record no commit (4, 14)") })
  }

  @Test("a selection where no commit has two sessions of a handler compares nothing, and says so")
  func nothingToCompare() throws {
    let history = try FlakyHistory(seed: 17)
    let analysis = try Self.analyse(history) { $0.commit = FlakyHistory.commits[5] }
    #expect(analysis.sessions == [17])
    #expect(analysis.findings.allSatisfy { $0.judgedGroups == 0 && $0.flakeRate == nil })
    #expect(analysis.findings(.flaky).isEmpty)
    #expect(analysis.notes.contains { $0.hasPrefix("No handler ran in 2 or more sessions") })
    // Broken still stands on a single commit: it failed every run of it.
    #expect(try Self.finding(analysis, Self.charge).verdict == .broken)
  }

  @Test("the analysis does not depend on the order of the sessions given", arguments: seeds)
  func orderIndependent(seed: UInt64) throws {
    let history = try FlakyHistory(seed: seed)
    let database = try QueryDatabase(path: history.fixture.path)
    var filter = QueryFilter()
    filter.session = .all
    let tallies = try database.tallies(
      of: try database.sessions(matching: filter), filter: filter, by: .handler,
      collectDurations: false)
    var generator = SeededGenerator(seed: seed)
    let shuffled = FlakyAnalysis(tallies.shuffled(using: &generator))
    let ordered = FlakyAnalysis(tallies)
    #expect(shuffled.findings.map(\.key) == ordered.findings.map(\.key), "seed \(seed)")
    #expect(shuffled.findings.map(\.verdict) == ordered.findings.map(\.verdict), "seed \(seed)")
    #expect(shuffled.findings.map(\.sessions) == ordered.findings.map(\.sessions), "seed \(seed)")
    #expect(shuffled.commits == ordered.commits, "seed \(seed)")
  }

  @Test(
    "reading only the window's sessions gives the analysis of reading them all, notes included",
    arguments: [1, 3, 20])
  func judgedSessionsSuffice(window: Int) throws {
    let history = try FlakyHistory(seed: 23)
    let database = try QueryDatabase(path: history.fixture.path)
    var filter = QueryFilter()
    filter.session = .all
    var options = FlakyAnalysis.Options()
    options.window = window
    let sessions = try database.sessions(matching: filter)
    let judged = FlakyAnalysis.judgedSessions(of: sessions, options: options)
    #expect(judged.count < sessions.count)
    let all = FlakyAnalysis(
      try database.tallies(of: sessions, filter: filter, by: .handler, collectDurations: false),
      options: options)
    let some = FlakyAnalysis(
      try database.tallies(of: judged, filter: filter, by: .handler, collectDurations: false),
      selected: sessions, options: options)
    #expect(judged.map(\.id) == all.sessions)
    #expect(some.findings.map(\.key) == all.findings.map(\.key))
    #expect(some.findings.map(\.verdict) == all.findings.map(\.verdict))
    #expect(some.findings.map(\.sessions) == all.findings.map(\.sessions))
    #expect(some.notes == all.notes)
    #expect(some.sessionsOutsideWindow == all.sessionsOutsideWindow)
    #expect(some.sessionsWithoutCommit == all.sessionsWithoutCommit)
  }
}
