import Foundation
import SleeveQuery
import SleeveRecorder
import SleeveStore

/// Writes sessions as OpenTelemetry traces in OTLP/JSON, one `ExportTraceServiceRequest` per
/// line: the file format the OpenTelemetry Collector's `otlpjsonfile` receiver reads.
///
/// Each fire is a span (a child of the fire that sent it, when that was recorded) with one
/// child span per handler invocation. A `failed` invocation has status ERROR and an
/// `exception` event. Each session is one resource, described by its metadata. Lines hold up to
/// `spansPerLine` spans, so memory stays flat.
final class OTLPJSONExporter {
  private let sink: ExportSink
  private let spansPerLine: Int
  private var resourcePrefix = ""
  private var spans: [String] = []
  private var sessionUUID = ""

  init(sink: ExportSink, spansPerLine: Int = 1_000) {
    self.sink = sink
    self.spansPerLine = spansPerLine
  }

  /// Starts a session's spans; the previous session's are written out.
  func begin(_ session: SessionSummary) throws {
    try flush()
    sessionUUID = session.uuid
    resourcePrefix =
      #"{"resourceSpans":[{"resource":{"attributes":["#
      + Self.resourceAttributes(of: session).joined(separator: ",")
      + #"]},"scopeSpans":[{"scope":{"name":"sleeve","version":"#
      + JSONText.quoted(Sleeve.version) + #"},"spans":["#
  }

  /// Adds a fire and its invocations.
  func add(_ group: ExportFireGroup) throws {
    let rootFire = group.fire?.rootNumber ?? group.outcomes.first?.fireNumber ?? 0
    let traceID = OTLPIdentifiers.traceID(sessionUUID: sessionUUID, rootFire: rootFire)
    if let fire = group.fire {
      spans.append(Self.span(of: fire, outcomes: group.outcomes, traceID: traceID))
    }
    for outcome in group.outcomes {
      spans.append(Self.span(of: outcome, traceID: traceID))
    }
    if spans.count >= spansPerLine { try flush() }
  }

  /// Writes the spans not yet written.
  func flush() throws {
    guard !spans.isEmpty else { return }
    try sink.write(resourcePrefix + spans.joined(separator: ",") + "]}]}]}\n")
    spans.removeAll(keepingCapacity: true)
  }

  // MARK: Spans

  private static func span(of fire: ExportFire, outcomes: [ExportOutcome], traceID: String)
    -> String
  {
    let end = outcomes.reduce(fire.atUnixNanoseconds) {
      max($0, $1.startedUnixNanoseconds &+ $1.durationNanoseconds)
    }
    var attributes = [
      attribute("sleeve.events", fire.events), attribute("sleeve.fire.origin", fire.origin),
      attribute("sleeve.fire.depth", fire.depth), attribute("sleeve.fire.number", fire.number),
    ]
    if let control = fire.control { attributes.insert(attribute("sleeve.control", control), at: 0) }
    if let kind = fire.controlKind { attributes.append(attribute("sleeve.control.kind", kind)) }
    let name = [fire.control, fire.events].compactMap { $0 }.joined(separator: " ")
    return spanText(
      traceID: traceID, spanID: OTLPIdentifiers.fireSpanID(fire.number),
      parentSpanID: fire.parentNumber.map(OTLPIdentifiers.fireSpanID), name: name,
      start: fire.atUnixNanoseconds, end: end, attributes: attributes, tail: "")
  }

  private static func span(of outcome: ExportOutcome, traceID: String) -> String {
    var attributes = [
      attribute("sleeve.outcome.status", outcome.status),
      attribute("sleeve.outcome.number", outcome.number),
      attribute("sleeve.handler.async", outcome.isAsync),
    ]
    let optional: [(String, String?)] = [
      ("sleeve.handler", outcome.handler), ("sleeve.handler.identifier", outcome.identifier),
      ("sleeve.handler.kind", outcome.handlerKind), ("sleeve.handler.site", outcome.site),
      ("sleeve.outcome.skip_reason", outcome.skipReason),
      ("feature_flag.key", outcome.flagKey), ("feature_flag.result.variant", outcome.variant),
      ("sleeve.flag.state", outcome.flagState),
    ]
    for case (let key, let value?) in optional { attributes.append(attribute(key, value)) }
    if outcome.flagKey != nil {
      attributes.append(attribute("feature_flag.provider.name", "sleeve"))
    }
    let end = outcome.startedUnixNanoseconds &+ outcome.durationNanoseconds
    var tail = ""
    if outcome.status == "failed" {
      var exception = [attribute("exception.type", outcome.errorType ?? "Error")]
      if let message = outcome.errorMessage {
        exception.append(attribute("exception.message", message))
      }
      tail =
        #","events":[{"timeUnixNano":""# + String(end) + #"","name":"exception","attributes":["#
        + exception.joined(separator: ",") + #"]}],"status":{"code":2"#
        + (outcome.errorMessage.map { #","message":"# + JSONText.quoted($0) } ?? "") + "}"
    }
    return spanText(
      traceID: traceID, spanID: OTLPIdentifiers.outcomeSpanID(outcome.number),
      parentSpanID: OTLPIdentifiers.fireSpanID(outcome.fireNumber),
      name: outcome.handler ?? "handler", start: outcome.startedUnixNanoseconds, end: end,
      attributes: attributes, tail: tail)
  }

  /// A span with kind INTERNAL (1); `tail` adds events and status.
  private static func spanText(
    traceID: String, spanID: String, parentSpanID: String?, name: String, start: Int64,
    end: Int64, attributes: [String], tail: String
  ) -> String {
    #"{"traceId":""# + traceID + #"","spanId":""# + spanID + "\""
      + (parentSpanID.map { #","parentSpanId":""# + $0 + "\"" } ?? "")
      + #","name":"# + JSONText.quoted(name) + #","kind":1,"startTimeUnixNano":""#
      + String(start) + #"","endTimeUnixNano":""# + String(end) + #"","attributes":["#
      + attributes.joined(separator: ",") + "]" + tail + "}"
  }

  // MARK: Resource

  /// The session as resource attributes: `service.name` is the session's name; host,
  /// process, OS and runtime use OpenTelemetry's names; the rest are `sleeve.*`, with each
  /// recorded environment variable as `sleeve.env.NAME`.
  static func resourceAttributes(of session: SessionSummary) -> [String] {
    let metadata = session.metadata
    var attributes = [
      attribute("service.name", session.name),
      attribute("service.instance.id", session.uuid),
      attribute("sleeve.session.id", session.uuid),
      attribute("sleeve.session.name", session.name),
      attribute("sleeve.session.status", session.status),
      attribute("sleeve.session.started_unix_ns", session.startedUnixNanoseconds),
    ]
    let named: [(String, String)] = [
      ("host.name", "host"), ("os.description", "os"),
      ("process.runtime.description", "runtime"), ("sleeve.version", "sleeveVersion"),
      ("sleeve.sqlite_version", "sqliteVersion"), ("sleeve.session.durability", "durability"),
    ]
    for (key, field) in named {
      if let value = metadata[field], !value.isEmpty { attributes.append(attribute(key, value)) }
    }
    if let pid = metadata["pid"].flatMap({ Int64($0) }) {
      attributes.append(attribute("process.pid", pid))
    }
    let tags = parseJSON(metadata["tagsJSON"]) as? [String] ?? []
    if !tags.isEmpty {
      attributes.append(
        #"{"key":"sleeve.session.tags","value":{"arrayValue":{"values":["#
          + tags.map { #"{"stringValue":"# + JSONText.quoted($0) + "}" }.joined(separator: ",")
          + "]}}}")
    }
    let stored = parseJSON(metadata["metadataJSON"]) as? [String: Any] ?? [:]
    let environment = stored["environment"] as? [String: String] ?? [:]
    for name in environment.keys.sorted() {
      attributes.append(attribute("sleeve.env." + name, environment[name] ?? ""))
    }
    return attributes
  }

  private static func parseJSON(_ text: String?) -> Any? {
    guard let data = text?.data(using: .utf8) else { return nil }
    return try? JSONSerialization.jsonObject(with: data)
  }

  private static func attribute(_ key: String, _ value: String) -> String {
    #"{"key":"# + JSONText.quoted(key) + #","value":{"stringValue":"# + JSONText.quoted(value)
      + "}}"
  }

  private static func attribute(_ key: String, _ value: Int64) -> String {
    #"{"key":"# + JSONText.quoted(key) + #","value":{"intValue":""# + String(value) + "\"}}"
  }

  private static func attribute(_ key: String, _ value: Bool) -> String {
    #"{"key":"# + JSONText.quoted(key) + #","value":{"boolValue":"# + (value ? "true" : "false")
      + "}}"
  }
}
