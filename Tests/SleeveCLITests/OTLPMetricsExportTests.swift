import Foundation
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// `sleeve export --format otlp-metrics-json`: per handler and variant, an exponential
/// histogram of durations and a counter per status, in OTLP/JSON.
@Suite("OTLP metrics export")
struct OTLPMetricsExportTests {
  static func export(_ fixture: FixtureDatabase, into directory: TemporaryDirectory)
    async throws -> (String, String)
  {
    let out = directory.path("metrics.jsonl")
    let result = await CLIRunner.run([
      "export", "--db", fixture.path, "--session", "all", "--format", "otlp-metrics-json",
      "--out", out,
    ])
    #expect(result.exit == 0, "\(result.error)")
    return (try String(contentsOfFile: out, encoding: .utf8), out)
  }

  @Test("the export line counts what metrics hold: invocations and data points, never fires")
  func exportLineCountsDataPoints() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let out = directory.path("metrics.jsonl")
    let result = await CLIRunner.run([
      "export", "--db", fixture.path, "--session", "all", "--format", "otlp-metrics-json",
      "--out", out,
    ])
    #expect(result.exit == 0, "\(result.error)")
    // The file's own figures: every data point, and the invocations its counters add up to.
    var points = 0
    var invocations = 0
    for line in try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n") {
      let request = try #require(
        JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      let metrics = try #require(
        ((request["resourceMetrics"] as? [[String: Any]])?.first?["scopeMetrics"]
          as? [[String: Any]])?.first?["metrics"] as? [[String: Any]])
      for metric in metrics {
        let body = (metric["exponentialHistogram"] ?? metric["sum"]) as? [String: Any]
        let dataPoints = try #require(body?["dataPoints"] as? [[String: Any]])
        points += dataPoints.count
        if metric["sum"] != nil {
          invocations += dataPoints.compactMap { ($0["asInt"] as? String).flatMap { Int($0) } }
            .reduce(0, +)
        }
      }
    }
    #expect(points > 0 && invocations > 0)
    #expect(
      result.error.hasPrefix(
        "Exported \(invocations) handler invocations as \(points) metric data points from "),
      "\(result.error)")
    #expect(!result.error.contains("fires"), "\(result.error)")
  }

  @Test("one line per session; each handler's histogram holds its ran durations at scale 5")
  func histogramsHoldTheRanDurations() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let (text, _) = try await Self.export(fixture, into: directory)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 2)
    let first = try #require(
      JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    let metrics = try #require(
      ((first["resourceMetrics"] as? [[String: Any]])?.first?["scopeMetrics"] as? [[String: Any]])?
        .first?["metrics"] as? [[String: Any]])
    #expect(
      metrics.map { $0["name"] as? String } == [
        "sleeve.handler.duration", "sleeve.handler.outcomes",
      ])
    let points = try #require(
      (metrics[0]["exponentialHistogram"] as? [String: Any])?["dataPoints"] as? [[String: Any]])
    // validate (9 ran), charge off (5), charge on (10), in registration then variant order.
    #expect(points.map { $0["count"] as? String } == ["9", "5", "10"])
    #expect(points.allSatisfy { $0["scale"] as? Int == 5 })
    #expect(points.map { $0["sum"] as? Int } == [68, 250, 1_600])
    #expect(points[0]["min"] as? Int == 1 && points[0]["max"] as? Int == 11)
    let counters = try #require(
      (metrics[1]["sum"] as? [String: Any])?["dataPoints"] as? [[String: Any]])
    // validate: 9 ok, 1 ownerReleased, 1 skipped; charge off: 5 ok; charge on: 8 ok, 2 failed.
    #expect(counters.map { $0["asInt"] as? String } == ["9", "1", "1", "5", "8", "2"])
  }

  @Test(
    "the official opentelemetry-proto classes parse the metrics, and their buckets add up",
    .enabled(
      if: Proofs.run(
        needs: .pythonModule(
          "opentelemetry.proto.collector.metrics.v1", package: "opentelemetry-proto")),
      "needs opentelemetry-proto (scripts/requirements-test.txt)"))
  func parsesWithOpenTelemetryProto() async throws {
    let fixture = try FixtureDatabase.standard()
    let directory = TemporaryDirectory()
    let (_, out) = try await Self.export(fixture, into: directory)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("scripts/check-otlp-metrics.py").path
    let parsed = try await ChildProcess.runOffThePool(PythonModule.interpreter, [script, out])
    #expect(parsed.status == 0, "\(parsed.output)")
    // 3 + 1 histograms; 6 + 1 counters; 26 + 3 outcomes (every status of both sessions).
    #expect(parsed.output == "histograms 4 counters 7 outcomes 29\n")
  }
}
