import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI
@testable import SleeveQuery

/// The table and JSON of a diff answered from summary histograms say so: the rank tests ran on
/// the buckets, and the percentiles are by rank within the bucket error.
@Suite("Diff output on summaries")
struct DiffTableSummariesTests {
  /// A one-handler diff, 300 values a side, the candidate 50% slower, every tally a histogram
  /// (`summaries`) or raw durations.
  static func diff(summaries: Bool) -> BaselineDiff {
    var generator = SeededGenerator(seed: 0xD1F7)
    var diff = BaselineDiff(grouping: .handler, options: DiffOptions())
    for (id, side, factor) in [(1, BaselineDiff.Side.baseline, 1.0), (2, .candidate, 1.5)] {
      let values = (0..<300).map { _ in
        Int64(Double(Int64.random(in: 1_000_000...3_000_000, using: &generator)) * factor)
      }
      var tally = GroupTally(key: .handler(control: "Checkout", name: "pay"))
      tally.counts[Int(RecordCodes.Status.ok.rawValue)] = values.count
      if summaries {
        var histogram = ExponentialHistogram()
        for value in values { histogram.add(value) }
        tally.histogram = histogram
      } else {
        tally.durations = values
      }
      let session = SessionSummary(
        id: Int64(id), uuid: "", name: "", startedUnixNanoseconds: 0,
        lastSeenUnixNanoseconds: 0, liveness: .ended, writeErrors: 0, failedEvents: 0,
        droppedEvents: 0, fires: 0, outcomes: 0, metadata: [:], context: SessionContext())
      diff.add(SessionTallies(session: session, groups: [tally]), side: side)
    }
    diff.finish()
    return diff
  }

  @Test("the method column and JSON say histograms and by-rank percentiles only on summaries")
  func methodTextSaysWhich() throws {
    for summaries in [false, true] {
      let diff = Self.diff(summaries: summaries)
      let row = try #require(diff.rows.first)
      #expect(row.verdict == .regressed)
      let method = DiffTable.method(row, options: diff.options)
      #expect(method.contains("on summary histograms (ties within a bucket, ±1.083%)") == summaries)
      #expect(
        method.contains(
          "percentiles by rank, numpy method='lower' (the value at rank floor((n-1)p/100)), "
            + "from base-2 exponential histograms, ±1.083%") == summaries)
      let json = DiffTable.json(diff).text
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
      let rows = try #require(object["rows"] as? [[String: Any]])
      let baseline = try #require(rows.first?["baseline"] as? [String: Any])
      #expect(
        baseline["percentileMethod"] as? String
          == (summaries ? HistogramSample.percentileMethod(scale: 5) : Percentile.method))
    }
  }

  @Test(
    "sleeve diff and check --baseline on summarized sessions: the verdicts of --exact, methods on histograms"
  )
  func commandsOnSummaries() async throws {
    let history = try SyntheticHistory(
      seed: 21, baselineRuns: 6,
      handlers: [
        .init("steady"), .init("slower", change: .slower(1.8)),
        .init("decoding", change: .newFailureType(count: 1)),
      ])
    try history.fixture.summarizeEnded()
    let db = history.fixture.path
    func rows(_ extra: [String]) async throws -> [[String: Any]] {
      let result = await CLIRunner.run(
        ["diff", "--db", db, "--baseline", "branch=main", "--format", "json"] + extra)
      #expect(result.exit == 0, "\(result.error)")
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
      return try #require(object["rows"] as? [[String: Any]])
    }
    let summarized = try await rows([])
    let exact = try await rows(["--exact"])
    func verdicts(_ rows: [[String: Any]]) -> [String: String] {
      Dictionary(
        uniqueKeysWithValues: rows.map {
          ($0["handler"] as? String ?? "", $0["verdict"] as? String ?? "")
        })
    }
    #expect(
      verdicts(summarized) == [
        "steady": "unchanged", "slower": "regressed", "decoding": "regressed",
      ])
    #expect(verdicts(summarized) == verdicts(exact))
    for row in summarized {
      let test = try #require(row["latencyTest"] as? [String: Any])
      #expect(
        (test["method"] as? String)?.hasSuffix(HistogramSample.methodNote(scale: 5)) == true)
    }
    for row in exact {
      let test = try #require(row["latencyTest"] as? [String: Any])
      #expect((test["method"] as? String)?.contains("summary histograms") == false)
    }
    let gate = await CLIRunner.run([
      "check", "--db", db, "--baseline", "branch=main", "--format", "json",
    ])
    #expect(
      gate.out.contains("on summary histograms (ties within a bucket, ±1.083%)"), "\(gate.out)")
    let exactGate = await CLIRunner.run([
      "check", "--db", db, "--baseline", "branch=main", "--format", "json", "--exact",
    ])
    #expect(gate.exit == exactGate.exit)
    #expect(!exactGate.out.contains("summary histograms (ties"))
  }
}
