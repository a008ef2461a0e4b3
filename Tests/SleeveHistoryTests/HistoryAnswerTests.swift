import Foundation
import SleeveTestSupport
import Testing

/// Answers from a shared history equal the answers from a local file holding the same sessions,
/// merged and then pruned: every reading command, every format, byte for byte (the session
/// numbers agree here, since both number the sessions in the order they were published).
@Suite("Answers from the history", .enabled(if: Proofs.run(needs: TestPostgres.tool)))
struct HistoryAnswerTests {
  /// Every command that answers from summaries, as a CI job or a person asks it.
  static let commands: [[String]] = [
    ["sessions"], ["errors", "--session", "all"], ["latency", "--session", "all"],
    ["latency", "--session", "all", "--by", "variant"], ["flags"], ["flaky"],
    ["lint", "--session", "all"],
    ["diff", "--baseline", "branch=main", "--candidate", "session=last", "--allow-overlap"],
    ["check", "--session", "all"], ["check", "--baseline", "branch=main,last=20"],
    ["report", "--session", "all"], ["errors", "--exact"], ["changes", "--branch", "main"],
    ["changes", "--metric", "all", "--min-commits", "1"],
  ]

  static let formats = ["table", "json", "csv", "markdown", "github", "junit"]

  /// `text` without JUnit's `timestamp="…"` (when the report was written, not what it says).
  static func untimed(_ text: String) -> String {
    text.replacingOccurrences(
      of: #"timestamp="[0-9T:-]+""#, with: "timestamp=\"\"", options: .regularExpression)
  }

  @Test("every reading command answers from the history as from the merged, pruned file")
  func everyCommandAndFormat() async throws {
    let demo = try await HistoryServer.publishedDemo()
    let (reference, history) = (demo.reference, demo.history)
    var compared = 0
    for command in Self.commands {
      for format in Self.formats {
        let arguments = command + ["--format", format]
        let fromFile = try await HistoryServer.answer(arguments + ["--db", reference])
        let fromHistory = try await HistoryServer.answer(arguments + ["--db", history.url])
        #expect(fromHistory.status == fromFile.status, "\(arguments)")
        #expect(Self.untimed(fromHistory.out) == Self.untimed(fromFile.out), "\(arguments)")
        if fromFile.status == 0 || fromFile.status == 1 || fromFile.status == 2 { compared += 1 }
      }
    }
    let exported = ["export", "--format", "otlp-metrics-json", "--session", "all"]
    let fromFile = try await HistoryServer.answer(exported + ["--db", reference])
    let fromHistory = try await HistoryServer.answer(exported + ["--db", history.url])
    #expect(fromFile.status == 0)
    #expect(fromHistory.status == 0)
    #expect(fromHistory.out == fromFile.out)
    // Answers, not a row of identical refusals.
    #expect(compared >= 40, "only \(compared) answers were compared")
  }

  @Test(
    "seeded histories with strata and planted changes answer from the history as from the file",
    arguments: [41, 42, 43] as [UInt64])
  func seededHistories(seed: UInt64) async throws {
    let synthetic = try SyntheticHistory(
      seed: seed, baselineRuns: 8, candidateRuns: 2,
      handlers: [
        .init("steady"), .init("slower", change: .slower(1.6)),
        .init("errors", change: .moreErrors(0.2)),
        .init("decoding", change: .newFailureType(count: 4)),
        .init("added", change: .new), .init("removed", change: .gone),
      ], testID: "CheckoutTests/checkout()")
    let directory = TemporaryDirectory()
    let reference = directory.path("reference.sqlite")
    try await HistoryServer.mergedAndPruned([synthetic.fixture.path], at: reference)
    let history = try await HistoryServer.fresh()
    try await history.publish(synthetic.fixture.path)
    for command in [
      ["diff", "--baseline", "branch=main", "--candidate", "branch=feature"],
      ["check", "--baseline", "branch=main,last=20", "--branch", "feature", "--last", "2"],
      ["latency", "--session", "all", "--by", "session"], ["errors", "--session", "all"],
    ] {
      for format in ["json", "markdown"] {
        let arguments = command + ["--format", format]
        let fromFile = try await HistoryServer.answer(arguments + ["--db", reference])
        let fromHistory = try await HistoryServer.answer(arguments + ["--db", history.url])
        #expect(fromHistory.status == fromFile.status, "seed \(seed): \(arguments)")
        #expect(fromHistory.out == fromFile.out, "seed \(seed): \(arguments)")
        #expect(!fromFile.out.isEmpty, "seed \(seed): \(arguments) answered nothing")
      }
    }
  }

  @Test(
    "check and diff --history judge the local run against the history's baseline as one file would")
  func gateAgainstTheHistory() async throws {
    let directory = TemporaryDirectory()
    let runs = directory.path("runs.sqlite")
    try await HistoryServer.demoHistory(at: runs)
    let pullRequest = directory.path("pull-request.sqlite")
    let demo = try await HistoryServer.sleeve(["demo", "--db", pullRequest])
    try #require(demo.status == 0, "\(demo.output)")
    let history = try await HistoryServer.fresh()
    try await history.publish(runs)
    // One file holding both: the pull request's run (raw rows and all), then the history's
    // sessions merged and pruned.
    let pruned = directory.path("pruned.sqlite")
    try await HistoryServer.mergedAndPruned([runs], at: pruned)
    let together = directory.path("together.sqlite")
    let merged = try await HistoryServer.sleeve(["merge", together, pullRequest, pruned])
    try #require(merged.status == 0, "\(merged.output)")
    var answered = 0
    for command in [
      ["check", "--baseline", "branch=main,last=20"],
      ["check", "--baseline", "branch=main,last=3", "--failure-limit", "1"],
      ["check", "--baseline", "branch=main,last=20", "--quarantine", "flaky"],
      ["diff", "--baseline", "branch=main,last=20"],
      ["diff", "--baseline", "branch=main", "--by", "control"],
    ] {
      for format in ["table", "json", "markdown", "github"] {
        let arguments = command + ["--format", format]
        let side = command[0] == "check" ? ["--session", "1"] : ["--candidate", "session=1"]
        let fromFile = try await HistoryServer.answer(arguments + side + ["--db", together])
        let fromHistory = try await HistoryServer.answer(
          arguments + side + ["--db", pullRequest, "--history", history.url])
        #expect(fromHistory.status == fromFile.status, "\(arguments)")
        #expect(fromHistory.out == fromFile.out, "\(arguments)")
        if fromFile.out.contains("checkout") { answered += 1 }
      }
    }
    #expect(answered == 20)
    // The candidate is the local file's alone: the history's sessions are never judged.
    let all = try await HistoryServer.answer(
      [
        "check", "--baseline", "branch=main", "--session", "all", "--format", "json", "--db",
        pullRequest, "--history", history.url,
      ])
    let document = try JSONSerialization.jsonObject(with: Data(all.out.utf8)) as? [String: Any]
    #expect(document?["sessions"] as? [Int] == [1], "\(all.out.prefix(400))")
  }
}
