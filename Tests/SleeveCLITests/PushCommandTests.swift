import Foundation
import SleeveTestSupport
import Testing

/// `sleeve export --endpoint`: bad input refused with 64 before anything is sent, faults of
/// the receiver with their documented codes, and a push killed mid-way that resumes.
@Suite(
  "sleeve export --endpoint",
  .enabled(
    if: Proofs.run(needs: .python3), "needs python3 (scripts/otlp-test-server)"),
  .timeLimit(.minutes(10)))
struct PushCommandTests {
  /// The span ids (`trace/span`) of OTLP/JSON trace requests, in order.
  private static func spanIDs(_ bodies: [String]) throws -> [String] {
    var ids: [String] = []
    for body in bodies {
      for line in body.split(separator: "\n") {
        let json = try #require(
          try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        for resource in json["resourceSpans"] as? [[String: Any]] ?? [] {
          for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
            for span in scope["spans"] as? [[String: Any]] ?? [] {
              ids.append("\(span["traceId"] ?? "")/\(span["spanId"] ?? "")")
            }
          }
        }
      }
    }
    return ids
  }

  @Test(
    "bad endpoints, headers and options are refused with 64, on one line, echoing no secret",
    arguments: [
      (["--endpoint", "not a url"], [:], "--endpoint"),
      (["--endpoint", "ftp://127.0.0.1:21"], [:], "http or https"),
      (["--endpoint", "http://user:hunter2@127.0.0.1:4318"], [:], "OTEL_EXPORTER_OTLP_HEADERS"),
      (["--endpoint", "http://127.0.0.1:99999"], [:], "--endpoint"),
      (
        ["--push"],
        [
          "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1",
          "OTEL_EXPORTER_OTLP_HEADERS": "authorization=Bearer hunter2,broken",
        ],
        "OTEL_EXPORTER_OTLP_HEADERS"
      ),
      (
        ["--push"],
        [
          "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1",
          "OTEL_EXPORTER_OTLP_HEADERS": "x-key=hunter2\r\nevil: 1",
        ],
        "OTEL_EXPORTER_OTLP_HEADERS"
      ),
      (["--push"], [:], "no OTLP endpoint"),
      (
        ["--push"],
        [
          "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1",
          "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc",
        ],
        "grpc is not supported"
      ),
      (["--endpoint", "http://127.0.0.1:1", "--format", "csv"], [:], "otlp-json"),
      (["--endpoint", "http://127.0.0.1:1", "--out", "x.json"], [:], "choose one"),
      (["--endpoint", "http://127.0.0.1:1", "--timeout", "0s"], [:], "--timeout"),
      (["--endpoint", "http://127.0.0.1:1", "--compression", "br"], [:], "--compression"),
      (["--resend"], [:], "--resend goes with --endpoint"),
    ] as [([String], [String: String], String)])
  func badInputIsRefused(options: [String], environment: [String: String], says: String)
    async throws
  {
    let fixture = try FixtureDatabase.standard()
    let result = await CLIRunner.run(
      ["export", "--db", fixture.path, "--session", "all"] + options, environment: environment)
    #expect(result.exit == 64, "\(result.error)")
    #expect(result.out.isEmpty)
    let first = result.error.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix("Error: ") && first.contains(says), "\(result.error)")
    #expect(!result.error.contains("hunter2"))
    // Nothing was recorded: the file still has no delivery.
    let sessions = await CLIRunner.run(["sessions", "--db", fixture.path])
    #expect(!sessions.out.contains("delivered"))
  }

  @Test(
    "a 400 exits 76 with the receiver's message, marks nothing delivered, and a rerun sends all")
  func refusalExits76() async throws {
    let fixture = try FixtureDatabase.standard()
    // The first request is refused, the ones after it accepted: the rerun goes to the same
    // endpoint, whose record must say nothing was delivered.
    let server = try await LoopbackOTLPServer.start(["400:message=span too large", "200"])
    defer { server.stop() }
    let push = ["export", "--db", fixture.path, "--session", "1", "--endpoint", server.baseURL]
    let result = try await CLIRunner.runChild(push)
    #expect(result.exit == 76, "\(result.error)")
    #expect(result.error.contains("HTTP 400: span too large"), "\(result.error)")
    let json = try await CLIRunner.runChild(["sessions", "--db", fixture.path, "--format", "json"])
    // The traces were refused; the metrics, sent next, got the 200.
    let states = try Self.deliveryStates(json.out).filter { $0.endpoint.hasSuffix("/v1/traces") }
    #expect(states.map(\.state) == ["failed"], "\(states)")
    #expect(states.map(\.requests) == [0])
    let rerun = try await CLIRunner.runChild(push)
    #expect(rerun.exit == 0, "\(rerun.error)")
    let file = try await CLIRunner.runChild([
      "export", "--db", fixture.path, "--session", "1", "--format", "otlp-json",
    ])
    let traces = try server.requests().dropFirst().filter { $0.path == "/v1/traces" }.map(\.body)
    #expect(try Self.spanIDs(traces) == (try Self.spanIDs([file.out])))
  }

  @Test(
    "a receiver echoing the Authorization header leaves its value on neither stderr nor the ledger")
  func echoedHeaderValueIsRedacted() async throws {
    let fixture = try FixtureDatabase.standard()
    let token = "tok-3f9a7c2e51d8"
    let server = try await LoopbackOTLPServer.start([
      "400:message=bad request; headers: Authorization: Bearer \(token)"
    ])
    defer { server.stop() }
    let result = try await CLIRunner.runChild(
      ["export", "--db", fixture.path, "--session", "1", "--endpoint", server.baseURL],
      environment: ["OTEL_EXPORTER_OTLP_HEADERS": "Authorization=Bearer%20\(token)"])
    #expect(result.exit == 76, "\(result.error)")
    #expect(result.error.contains("Authorization: [redacted]"), "\(result.error)")
    #expect(!result.error.contains(token), "the header value is on standard error")
    let json = try await CLIRunner.runChild(["sessions", "--db", fixture.path, "--format", "json"])
    let errors = try Self.deliveryStates(json.out).compactMap(\.lastError)
    #expect(errors.contains { $0.contains("[redacted]") }, "\(errors)")
    #expect(!json.out.contains(token), "the header value is in otlp_delivery_state.last_error")
  }

  @Test("an endpoint that refuses connections exits 69 naming it, after the retry budget")
  func unreachableExits69() async throws {
    let fixture = try FixtureDatabase.standard()
    // A port that was just free: nothing listens there.
    let closed = try await LoopbackOTLPServer.start(["200"])
    let url = closed.baseURL
    closed.stop()
    let result = try await CLIRunner.runChild([
      "export", "--db", fixture.path, "--session", "all", "--endpoint", url,
      "--retry-budget", "1s",
    ])
    #expect(result.exit == 69, "\(result.error)")
    #expect(result.error.contains("POST \(url)/v1/traces: unreachable"), "\(result.error)")
    #expect(result.error.contains("nothing more was marked delivered"))
    let json = try await CLIRunner.runChild(["sessions", "--db", fixture.path, "--format", "json"])
    #expect(try Self.deliveryStates(json.out).allSatisfy { $0.requests == 0 })
  }

  @Test("a receiver that never answers is cut off by --timeout, and the push exits 69")
  func silentReceiverTimesOut() async throws {
    let fixture = try FixtureDatabase.standard()
    let silent = try await LoopbackOTLPServer.start(["hang"])
    defer { silent.stop() }
    let started = ContinuousClock.now
    let result = try await CLIRunner.runChild([
      "export", "--db", fixture.path, "--session", "all", "--endpoint", silent.baseURL,
      "--timeout", "300ms", "--retry-budget", "0s",
    ])
    #expect(result.exit == 69, "\(result.error)")
    // A bound, not a speed target: without the deadline this would never return.
    #expect(ContinuousClock.now - started < WaitBounds.hang)
  }

  @Test("an endless answer costs the push its 64 KiB bound: the attempt ends, memory stays small")
  func endlessAnswerStaysSmall() async throws {
    let fixture = try FixtureDatabase.standard()
    let flood = try await LoopbackOTLPServer.start(["flood"])
    defer { flood.stop() }
    let arguments = [
      "export", "--db", fixture.path, "--session", "all", "--endpoint", flood.baseURL,
      // A deadline that is never the bound: a push that kept reading would hang until the
      // suite's time limit.
      "--timeout", "3600s", "--retry-budget", "0s",
    ]
    let (exit, peak) = try await OffThePool.run { () -> (Int32, Int) in
      let process = Process()
      process.executableURL = URL(fileURLWithPath: ChildProcess.sleeveBinary)
      process.arguments = arguments
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      let peak = process.waitForExitReadingPeakMemory()
      return (process.terminationStatus, peak)
    }
    #expect(exit == 0, "each answer is a 200, cut at its bound")
    // 47 MiB measured (debug build); FoundationNetworking's URLSession, which could not stop
    // reading a flood promptly, peaked at 289 to 357 MiB and 1.4 GiB in a test process.
    #expect(peak > 0 && peak < 128 << 20, "peak resident memory \(peak >> 20) MiB")
  }

  @Test("a push killed with SIGKILL mid-way resumes: nothing lost, nothing accepted sent again")
  func killedPushResumes() async throws {
    let directory = TemporaryDirectory()
    let database = directory.path("demo.sqlite")
    #expect(try await CLIRunner.runChild(["demo", "--db", database]).exit == 0)
    let file = try await CLIRunner.runChild([
      "export", "--db", database, "--session", "all", "--format", "otlp-json",
    ])
    let everything = try Self.spanIDs([file.out])
    // Two requests accepted, the next two (both on the wire at once) never answered: the
    // push is killed while it waits. Later requests are accepted: the rerun goes to the
    // same endpoint.
    let first = try await LoopbackOTLPServer.start(["200", "200", "hang", "hang", "200"])
    defer { first.stop() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ChildProcess.sleeveBinary)
    process.arguments = [
      "export", "--db", database, "--session", "all", "--endpoint", first.baseURL,
      "--timeout", "60s",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    // The fourth request goes once the second's answer is recorded (two are on the wire).
    var reachedFourth = false
    let deadline = ContinuousClock.now + WaitBounds.hang
    while !reachedFourth, ContinuousClock.now < deadline {
      reachedFourth = try first.requestCount() >= 4
      if !reachedFourth { try await Task.sleep(for: .milliseconds(20)) }
    }
    kill(process.processIdentifier, SIGKILL)
    await process.exited()
    try #require(reachedFourth, "the push never reached its fourth request")
    #expect(process.terminationReason == .uncaughtSignal)
    let accepted = try first.requests().prefix(2).map(\.body)
    #expect(try first.requests().allSatisfy { $0.path == "/v1/traces" })

    let push = ["export", "--db", database, "--session", "all", "--endpoint", first.baseURL]
    let rerun = try await CLIRunner.runChild(push)
    #expect(rerun.exit == 0, "\(rerun.error)")
    let resumed = try first.requests().dropFirst(4).filter { $0.path == "/v1/traces" }
      .map(\.body)
    // The two requests on the wire at once may be logged in either order: compared as
    // multisets, every span arrives exactly once.
    #expect(try (Self.spanIDs(accepted) + Self.spanIDs(resumed)).sorted() == everything.sorted())
    #expect(rerun.error.contains("2 requests delivered before"), "\(rerun.error)")
    // And a third push sends nothing at all.
    let before = try first.requestCount()
    let again = try await CLIRunner.runChild(push)
    #expect(again.exit == 0)
    #expect(try first.requestCount() == before)
  }

  @Test("sessions shows each signal's delivery once a session was pushed")
  func sessionsShowDeliveries() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.summarizeEnded()
    let server = try await LoopbackOTLPServer.start(["200"])
    defer { server.stop() }
    let pushed = try await CLIRunner.runChild([
      "export", "--db", fixture.path, "--session", "1", "--endpoint", server.baseURL,
    ])
    #expect(pushed.exit == 0, "\(pushed.error)")
    let table = try await CLIRunner.runChild(["sessions", "--db", fixture.path])
    let rows = table.out.split(separator: "\n")
    #expect(rows.first?.hasSuffix("delivered") == true, "\(table.out)")
    #expect(
      rows.contains { $0.contains("alpha") && $0.hasSuffix("metrics delivered, traces delivered") })
    #expect(rows.contains { $0.contains("beta") && $0.hasSuffix("-") })
    let json = try await CLIRunner.runChild(["sessions", "--db", fixture.path, "--format", "json"])
    let states = try Self.deliveryStates(json.out)
    #expect(states.map(\.state) == ["delivered", "delivered"])
    #expect(
      states.map(\.endpoint).sorted() == [
        server.baseURL + "/v1/metrics", server.baseURL + "/v1/traces",
      ])
  }

  @Test("the sharing page's push commands run as shown: the second push sends nothing new")
  func readmeCommandsRunAsShown() async throws {
    let directory = TemporaryDirectory()
    let environment = ["SLEEVE_DB": directory.path("sleeve.sqlite")]
    let server = try await LoopbackOTLPServer.start(["200"])
    defer { server.stop() }
    let commands = try ReadmeCommandLine.block(
      after: "### Push to your collector", in: "docs/guide/sharing.md")
    #expect(commands.map { $0.arguments.first ?? "" } == ["demo", "export", "export", "sessions"])
    var sent: [Int] = []
    var last = ""
    for command in commands {
      let arguments = command.arguments.map {
        $0 == "http://localhost:4318" ? server.baseURL : $0
      }
      let result = try await CLIRunner.runChild(arguments, environment: environment)
      #expect(result.exit == command.exit, "\(arguments): \(result.error)")
      if arguments.first == "export" { sent.append(try server.requestCount()) }
      last = result.out
    }
    // The demo's session: traces in several requests and one of metrics, then nothing.
    #expect(sent.count == 2 && sent[0] > 2 && sent[1] == sent[0], "\(sent)")
    #expect(last.contains("metrics delivered, traces delivered"), "\(last)")
  }

  @Test(
    "the pushed metrics requests parse with the official opentelemetry-proto classes",
    .enabled(
      if: Proofs.run(
        needs: .pythonModule(
          "opentelemetry.proto.collector.metrics.v1", package: "opentelemetry-proto")),
      "needs opentelemetry-proto (scripts/requirements-test.txt)"))
  func pushedMetricsParseWithOpenTelemetryProto() async throws {
    let fixture = try FixtureDatabase.standard()
    try fixture.summarizeEnded()
    let server = try await LoopbackOTLPServer.start(["200"])
    defer { server.stop() }
    let pushed = try await CLIRunner.runChild([
      "export", "--db", fixture.path, "--session", "1", "--format", "otlp-metrics-json",
      "--endpoint", server.baseURL, "--compression", "gzip",
    ])
    #expect(pushed.exit == 0, "\(pushed.error)")
    let bodies = try server.requests().filter { $0.path == "/v1/metrics" }
    #expect(bodies.count == 1)
    #expect(bodies.allSatisfy { $0.headers["content-encoding"] == "gzip" })
    let directory = TemporaryDirectory()
    let file = directory.path("pushed-metrics.jsonl")
    try bodies.map { $0.body + "\n" }.joined().write(
      toFile: file, atomically: true, encoding: .utf8)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("scripts/check-otlp-metrics.py").path
    let parsed = try await ChildProcess.runOffThePool(PythonModule.interpreter, [script, file])
    #expect(parsed.status == 0, "\(parsed.output)")
    // Session 1 "alpha": validate, charge off and charge on ran (3 histograms); 6 counters
    // over 26 outcomes of every status.
    #expect(parsed.output == "histograms 3 counters 6 outcomes 26\n")
  }

  private struct State {
    let endpoint: String
    let state: String
    let requests: Int
    let lastError: String?
  }

  private static func deliveryStates(_ json: String) throws -> [State] {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    return (object["sessions"] as? [[String: Any]] ?? []).flatMap { session in
      (session["deliveries"] as? [[String: Any]] ?? []).map {
        State(
          endpoint: $0["endpoint"] as? String ?? "", state: $0["state"] as? String ?? "",
          requests: $0["requests"] as? Int ?? -1, lastError: $0["lastError"] as? String)
      }
    }
  }
}
