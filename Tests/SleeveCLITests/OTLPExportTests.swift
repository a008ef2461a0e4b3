import Foundation
import SleeveCore
import SleeveRecorder
import SleeveTestSupport
import Testing

@testable import SleeveCLI

@Suite("sleeve export --format otlp-json")
struct OTLPExportTests {
  /// The standard fixture plus a fire sent by a handler of another (depth 2) with one outcome.
  private static func fixtureWithNestedFire() throws -> FixtureDatabase {
    let fixture = try FixtureDatabase.standard()
    let parent = try #require(
      try fixture.connection.scalarInt("SELECT min(id) FROM fires WHERE id >> 32 = 1"))
    let child = 1 << 32 | 5_000
    try fixture.connection.execute(
      """
      INSERT INTO fires (id, control_id, events, origin, parent_fire_id, depth, at_ns)
      VALUES (\(child), \(1 << 32 | 1), 4096, 1, \(parent), 2, 7);
      INSERT INTO outcomes (id, fire_id, registration_id, status, is_async, started_ns,
        duration_ns) VALUES (\(1 << 32 | 900), \(child), \(1 << 32 | 1), 0, 0, 8, 2);
      """)
    return fixture
  }

  private static func export(_ fixture: FixtureDatabase) async throws -> String {
    try await export(path: fixture.path)
  }

  private static func export(path: String) async throws -> String {
    let result = await CLIRunner.run([
      "export", "--db", path, "--session", "all", "--format", "otlp-json",
    ])
    #expect(result.exit == 0, "\(result.error)")
    return result.out
  }

  private struct Span {
    let json: [String: Any]
    var traceID: String { json["traceId"] as? String ?? "" }
    var spanID: String { json["spanId"] as? String ?? "" }
    var parentID: String? { json["parentSpanId"] as? String }
    var name: String { json["name"] as? String ?? "" }
    var attributes: [String: [String: Any]] {
      var byKey: [String: [String: Any]] = [:]
      for attribute in json["attributes"] as? [[String: Any]] ?? [] {
        byKey[attribute["key"] as? String ?? ""] = attribute["value"] as? [String: Any]
      }
      return byKey
    }
    func string(_ key: String) -> String? { attributes[key]?["stringValue"] as? String }
  }

  private static func spans(in text: String) throws -> (
    resources: [[String: Any]], spans: [Span]
  ) {
    var resources: [[String: Any]] = []
    var spans: [Span] = []
    for line in text.split(separator: "\n") {
      let request = try #require(
        JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(Set(request.keys) == ["resourceSpans"])
      for resourceSpans in request["resourceSpans"] as? [[String: Any]] ?? [] {
        resources.append(try #require(resourceSpans["resource"] as? [String: Any]))
        for scopeSpans in resourceSpans["scopeSpans"] as? [[String: Any]] ?? [] {
          let scope = try #require(scopeSpans["scope"] as? [String: Any])
          #expect(scope["name"] as? String == "sleeve")
          for span in scopeSpans["spans"] as? [[String: Any]] ?? [] {
            spans.append(Span(json: span))
          }
        }
      }
    }
    return (resources, spans)
  }

  private static func isHex(_ text: String, length: Int) -> Bool {
    text.count == length && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
      && text.contains { $0 != "0" }
  }

  @Test("the protobuf JSON mapping: hex ids, nanosecond strings, enum numbers, typed values")
  func encoding() async throws {
    let (_, spans) = try Self.spans(in: try await Self.export(try Self.fixtureWithNestedFire()))
    #expect(!spans.isEmpty)
    let allowed: Set<String> = [
      "traceId", "spanId", "parentSpanId", "name", "kind", "startTimeUnixNano",
      "endTimeUnixNano", "attributes", "events", "status",
    ]
    for span in spans {
      #expect(Set(span.json.keys).isSubset(of: allowed))
      #expect(Self.isHex(span.traceID, length: 32))
      #expect(Self.isHex(span.spanID, length: 16))
      if let parent = span.parentID { #expect(Self.isHex(parent, length: 16)) }
      #expect(span.json["kind"] as? Int == 1)
      let start = try #require(span.json["startTimeUnixNano"] as? String)
      let end = try #require(span.json["endTimeUnixNano"] as? String)
      #expect(start.allSatisfy(\.isNumber) && end.allSatisfy(\.isNumber))
      #expect(try #require(Int64(end)) >= (try #require(Int64(start))))
      for (key, value) in span.attributes {
        #expect(value.count == 1, "\(key)")
        let type = try #require(value.keys.first)
        #expect(["stringValue", "intValue", "boolValue"].contains(type), "\(key)")
        if type == "intValue" { #expect(value[type] is String, "\(key): int64 as string") }
      }
    }
  }

  @Test("a span per fire, a child span per invocation, nested fires in their parent's trace")
  func structure() async throws {
    let (resources, spans) = try Self.spans(
      in: try await Self.export(try Self.fixtureWithNestedFire()))
    let fires = spans.filter { $0.string("sleeve.events") != nil }
    let invocations = spans.filter { $0.string("sleeve.outcome.status") != nil }
    #expect(invocations.count == 30)  // 29 in the fixture, 1 nested
    #expect(fires.count + invocations.count == spans.count)
    let fireByID = Dictionary(uniqueKeysWithValues: fires.map { ($0.spanID, $0) })
    for invocation in invocations {
      let fire = try #require(fireByID[invocation.parentID ?? ""])
      #expect(fire.traceID == invocation.traceID)
      let end = Int64(invocation.json["endTimeUnixNano"] as? String ?? "") ?? 0
      #expect(end <= Int64(fire.json["endTimeUnixNano"] as? String ?? "") ?? 0)
    }
    let nested = try #require(fires.first { $0.string("sleeve.events") == "valueChanged" })
    let parent = try #require(fireByID[nested.parentID ?? ""])
    #expect(nested.traceID == parent.traceID)
    #expect(parent.parentID == nil)
    #expect(Set(fires.map(\.traceID)).count == fires.count - 1)

    #expect(resources.count == 2)  // one per session: no batch mixes sessions
    let names = resources.map { resource in
      (resource["attributes"] as? [[String: Any]] ?? []).first {
        $0["key"] as? String == "service.name"
      }.flatMap { ($0["value"] as? [String: Any])?["stringValue"] as? String }
    }
    #expect(names == ["alpha", "beta"])
  }

  @Test("failed invocations: status ERROR with an exception event; flags as feature_flag.*")
  func errorsAndFlags() async throws {
    let (_, spans) = try Self.spans(in: try await Self.export(try FixtureDatabase.standard()))
    let failed = spans.filter { $0.string("sleeve.outcome.status") == "failed" }
    #expect(failed.count == 2)
    for span in failed {
      #expect((span.json["status"] as? [String: Any])?["code"] as? Int == 2)
      let events = try #require(span.json["events"] as? [[String: Any]])
      #expect(events.map { $0["name"] as? String } == ["exception"])
      #expect(span.string("feature_flag.key") == "new-pay")
      #expect(span.string("feature_flag.result.variant") == "on")
    }
    let unflagged = spans.filter { $0.name == "validate" }
    #expect(!unflagged.isEmpty)
    #expect(
      unflagged.allSatisfy { $0.string("feature_flag.key") == nil && $0.json["status"] == nil })
    let fallbacks = spans.filter { $0.string("feature_flag.result.variant") == "off" }
    #expect(fallbacks.count == 5)
  }

  @Test("a recorded session's metadata becomes resource attributes: tags, environment, host")
  @MainActor
  func resourceFromRecordedSession() async throws {
    let directory = TemporaryDirectory()
    let path = directory.path("recorded.sqlite")
    let session = try await Recorder(path: path).startSession(
      name: "CheckoutTests", tags: ["ci", "nightly"], environment: ["HOME"])
    let pay = Button(name: "checkout.pay")
    pay.on(.touchUpInside, id: "charge") { _ in }
    session.attach(pay)
    pay.sendActions(for: .touchUpInside)
    try await session.end()
    let (resources, spans) = try Self.spans(in: try await Self.export(path: path))
    #expect(spans.count == 2)
    let resource = try #require(resources.first)
    var byKey: [String: [String: Any]] = [:]
    for attribute in resource["attributes"] as? [[String: Any]] ?? [] {
      byKey[attribute["key"] as? String ?? ""] = attribute["value"] as? [String: Any]
    }
    #expect(byKey["service.name"]?["stringValue"] as? String == "CheckoutTests")
    #expect(byKey["sleeve.session.id"]?["stringValue"] as? String == session.uuid)
    let home = ProcessInfo.processInfo.environment["HOME"]
    #expect(byKey["sleeve.env.HOME"]?["stringValue"] as? String == home)
    let tags = (byKey["sleeve.session.tags"]?["arrayValue"] as? [String: Any])?["values"]
    #expect((tags as? [[String: Any]])?.map { $0["stringValue"] as? String } == ["ci", "nightly"])
    #expect(byKey["process.pid"]?["intValue"] as? String == String(getpid()))
    #expect(byKey["host.name"] != nil && byKey["os.description"] != nil)
  }

  @Test("lines hold at most 1,000 spans and stay under 1 MiB, even with long messages")
  func batching() async throws {
    let fixture = try FixtureDatabase()
    try fixture.session(1, name: "long")
    try fixture.handler(session: 1, number: 1, name: "tap", control: "button")
    try fixture.outcomes(session: 1, handler: 1, durations: Array(repeating: 3, count: 1_200))
    try fixture.outcomes(
      session: 1, handler: 1, durations: Array(repeating: 3, count: 600), status: 1)
    let message = String(repeating: "x", count: 2_000)
    try fixture.connection.execute(
      "UPDATE outcomes SET error_type = 'E', error_message = '\(message)' WHERE status = 1")
    let text = try await Self.export(fixture)
    let lines = text.split(separator: "\n")
    #expect(lines.count >= 4)
    for line in lines { #expect(line.utf8.count < 1 << 20) }
    let (_, spans) = try Self.spans(in: text)
    #expect(spans.count == 3_600)
    let perLine = try lines.map { try Self.spans(in: String($0)).spans.count }
    #expect(perLine.allSatisfy { $0 <= 1_000 })
    // Every line but the last ended because it was full: 1,000 spans or 256 KiB.
    for (line, count) in zip(lines.dropLast(), perLine) {
      #expect(count == 1_000 || line.utf8.count >= 256 << 10)
    }
  }

  @Test(
    "the official opentelemetry-proto classes parse the export",
    .enabled(
      if: Proofs.run(
        needs: .pythonModule(
          "opentelemetry.proto.collector.trace.v1", package: "opentelemetry-proto")),
      "needs opentelemetry-proto (scripts/requirements-test.txt)"))
  func parsesWithOpenTelemetryProto() async throws {
    let fixture = try Self.fixtureWithNestedFire()
    let directory = TemporaryDirectory()
    let out = directory.path("traces.jsonl")
    let result = await CLIRunner.run([
      "export", "--db", fixture.path, "--session", "all", "--format", "otlp-json", "--out", out,
    ])
    #expect(result.exit == 0)
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("scripts/check-otlp-json.py").path
    let parsed = try await ChildProcess.runOffThePool(PythonModule.interpreter, [script, out])
    #expect(parsed.status == 0, "\(parsed.output)")
    // Every fixture outcome has a fire of its own: 30 fires and 30 invocations, 2 failed.
    #expect(parsed.output == "spans 60 errors 2\n")
  }
}
