import Foundation
import SleeveExport
import SleeveTestSupport
import Testing

/// The push against a real third-party OTLP collector: Rotel (`scripts/rotel-receiver`),
/// compared with Sleeve's own file export of the same sessions by
/// `scripts/check-rotel-spans.py` and `scripts/check-rotel-metrics.py`.
@Suite(
  "OTLP push to Rotel, a real collector",
  .enabled(
    if: Proofs.run(needs: .pythonModule("rotel", package: "rotel")),
    "needs rotel (scripts/requirements-test.txt)"),
  .timeLimit(.minutes(10)))
struct RotelPushTests {
  private static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts")

  /// The demo's recorded session, and a session with every hostile name (the fixture is
  /// returned too: its directory lives as long as it does).
  private static func databases(
    in directory: TemporaryDirectory
  ) async throws -> (paths: [String], keep: FixtureDatabase) {
    let demo = directory.path("demo.sqlite")
    // A short demo (300 fires): every kind of span, and little for Rotel and the checker to
    // chew on beside the rest of the suite.
    let made = try await CLIRunner.runChild(["demo", "--db", demo, "--fires", "300"])
    #expect(made.exit == 0, "\(made.error)")
    let hostile = try HostileNames.database()
    try hostile.summarizeEnded()
    return ([demo, hostile.path], hostile)
  }

  @Test(
    "every span and metric pushed arrives at Rotel with the file export's ids, parents, status and attributes"
  )
  func everythingArrivesAsExported() async throws {
    let directory = TemporaryDirectory()
    let (databases, fixture) = try await Self.databases(in: directory)
    defer { withExtendedLifetime(fixture) {} }
    for database in databases {
      // One receiver per signal (a hostile value could look like the other signal's log),
      // named by the per-signal variables; traces gzipped, metrics not.
      let traces = try await RotelReceiver.start(signal: "traces")
      let metrics = try await RotelReceiver.start(signal: "metrics")
      let environment = [
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": traces.baseURL + "/v1/traces",
        "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT": metrics.baseURL + "/v1/metrics",
        "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION": "gzip",
      ]
      let pushed = try await CLIRunner.runChild(
        ["export", "--db", database, "--session", "all", "--push"], environment: environment)
      #expect(pushed.exit == 0, "\(pushed.error)")
      #expect(pushed.error.contains("traces: "), "\(pushed.error)")
      let stem = database == fixture.path ? "hostile" : "demo"
      var files: [String: String] = [:]
      for format in ["otlp-json", "otlp-metrics-json"] {
        files[format] = directory.path("\(stem).\(format)")
        let exported = try await CLIRunner.runChild([
          "export", "--db", database, "--session", "all", "--format", format, "--out",
          files[format]!,
        ])
        #expect(exported.exit == 0, "\(exported.error)")
      }
      #expect(try await traces.finish() == 0)
      #expect(try await metrics.finish() == 0)
      let spans = try await ChildProcess.runOffThePool(
        PythonModule.interpreter,
        [
          Self.scripts.appendingPathComponent("check-rotel-spans.py").path,
          traces.logPath, files["otlp-json"]!,
        ])
      #expect(spans.status == 0, "\(stem): \(spans.output)")
      #expect(spans.output.contains(": all match"), "\(stem): \(spans.output)")
      let points = try await ChildProcess.runOffThePool(
        PythonModule.interpreter,
        [
          Self.scripts.appendingPathComponent("check-rotel-metrics.py").path,
          metrics.logPath, files["otlp-metrics-json"]!,
        ])
      #expect(points.status == 0, "\(stem): \(points.output)")
      #expect(points.output.contains(": all match"), "\(stem): \(points.output)")
    }
  }

  @Test("Rotel refuses a malformed request, and the sender reports its status without retrying")
  func malformedRequestIsRefused() async throws {
    let rotel = try await RotelReceiver.start()
    let configuration = try OTLPPushConfiguration.resolve(
      flags: OTLPPushFlags(endpoint: rotel.baseURL), environment: [:])
    let sender = OTLPHTTPSender(configuration: configuration)
    let result = await sender.send(Array(#"{"resourceSpans":[{"#.utf8), signal: .traces)
    guard case .failure(let error) = result else {
      Issue.record("Rotel accepted a malformed body: \(result)")
      return
    }
    #expect(error.kind == .rejected(status: 400))
    #expect(error.attempts == 1)
    #expect(try await rotel.finish() == 0)
  }
}
