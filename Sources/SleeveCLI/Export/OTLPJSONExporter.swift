import SleeveQuery
import SleeveStore

/// Writes sessions as OpenTelemetry traces in OTLP/JSON, one `ExportTraceServiceRequest` per
/// line: the file format the OpenTelemetry Collector's `otlpjsonfile` receiver reads.
///
/// Each fire is a span (a child of the fire that sent it, when that was recorded) with one
/// child span per handler invocation. A `failed` invocation has status ERROR and an
/// `exception` event. Each session is one resource, described by its metadata. A line holds at
/// most `spansPerLine` spans and ends once it passes `bytesPerLine` (256 KiB), well under the
/// 1 MiB the Collector's file reader takes per line by default; memory stays flat.
final class OTLPJSONExporter {
  private let sink: ExportSink
  private let spansPerLine: Int
  private let bytesPerLine: Int
  private var resourcePrefix = ""
  private var spansText = ""
  private var spanCount = 0
  private var sessionUUID = ""

  init(sink: ExportSink, spansPerLine: Int = 1_000, bytesPerLine: Int = 256 << 10) {
    self.sink = sink
    self.spansPerLine = spansPerLine
    self.bytesPerLine = bytesPerLine
  }

  /// Starts a session's spans; the previous session's are written out.
  func begin(_ session: SessionSummary) throws {
    try flush()
    sessionUUID = session.uuid
    resourcePrefix =
      #"{"resourceSpans":[{"resource":{"attributes":["#
      + Self.resourceAttributes(of: session)
      + #"]},"scopeSpans":[{"scope":{"name":"sleeve","version":"#
      + JSONText.quoted(Sleeve.version) + #"},"spans":["#
  }

  /// Adds a fire and its invocations.
  func add(_ group: ExportFireGroup) throws {
    let rootFire = group.fire?.rootNumber ?? group.outcomes.first?.fireNumber ?? 0
    let traceID = OTLPIdentifiers.traceID(sessionUUID: sessionUUID, rootFire: rootFire)
    if let fire = group.fire {
      startSpan()
      Self.appendSpan(of: fire, outcomes: group.outcomes, traceID: traceID, to: &spansText)
      try flushIfFull()
    }
    for outcome in group.outcomes {
      startSpan()
      Self.appendSpan(of: outcome, traceID: traceID, to: &spansText)
      try flushIfFull()
    }
  }

  private func flushIfFull() throws {
    if spanCount >= spansPerLine || spansText.utf8.count >= bytesPerLine { try flush() }
  }

  /// Writes the spans not yet written.
  func flush() throws {
    guard spanCount > 0 else { return }
    try sink.append { line in
      line += resourcePrefix
      line += spansText
      line += "]}]}]}\n"
    }
    spansText.removeAll(keepingCapacity: true)
    spanCount = 0
  }

  private func startSpan() {
    if spanCount > 0 { spansText += "," }
    spanCount += 1
  }

  // MARK: Spans

  private static func appendSpan(
    of fire: ExportFire, outcomes: [ExportOutcome], traceID: String, to out: inout String
  ) {
    let end = outcomes.reduce(fire.atUnixNanoseconds) {
      max($0, $1.startedUnixNanoseconds &+ $1.durationNanoseconds)
    }
    let name = [fire.control, fire.events].compactMap { $0 }.joined(separator: " ")
    appendSpanStart(
      traceID: traceID, spanID: OTLPIdentifiers.fireSpanID(fire.number),
      parentSpanID: fire.parentNumber.map(OTLPIdentifiers.fireSpanID), name: name,
      start: fire.atUnixNanoseconds, end: end, to: &out)
    var attributes = OTLPAttributeList()
    if let control = fire.control { attributes.add("sleeve.control", control, to: &out) }
    attributes.add("sleeve.events", fire.events, to: &out)
    attributes.add("sleeve.fire.origin", fire.origin, to: &out)
    attributes.add("sleeve.fire.depth", fire.depth, to: &out)
    attributes.add("sleeve.fire.number", fire.number, to: &out)
    if let kind = fire.controlKind { attributes.add("sleeve.control.kind", kind, to: &out) }
    out += "]}"
  }

  private static func appendSpan(of outcome: ExportOutcome, traceID: String, to out: inout String) {
    let end = outcome.startedUnixNanoseconds &+ outcome.durationNanoseconds
    appendSpanStart(
      traceID: traceID, spanID: OTLPIdentifiers.outcomeSpanID(outcome.number),
      parentSpanID: OTLPIdentifiers.fireSpanID(outcome.fireNumber),
      name: outcome.handler ?? "handler", start: outcome.startedUnixNanoseconds, end: end,
      to: &out)
    var attributes = OTLPAttributeList()
    attributes.add("sleeve.outcome.status", outcome.status, to: &out)
    attributes.add("sleeve.outcome.number", outcome.number, to: &out)
    attributes.add("sleeve.handler.async", outcome.isAsync, to: &out)
    let optional: [(String, String?)] = [
      ("sleeve.handler", outcome.handler), ("sleeve.handler.identifier", outcome.identifier),
      ("sleeve.handler.kind", outcome.handlerKind), ("sleeve.handler.site", outcome.site),
      ("sleeve.outcome.skip_reason", outcome.skipReason),
      ("feature_flag.key", outcome.flagKey), ("feature_flag.result.variant", outcome.variant),
      ("sleeve.flag.state", outcome.flagState),
    ]
    for case (let key, let value?) in optional { attributes.add(key, value, to: &out) }
    if outcome.flagKey != nil { attributes.add("feature_flag.provider.name", "sleeve", to: &out) }
    out += "]"
    if outcome.status == "failed" {
      out += #","events":[{"timeUnixNano":""# + String(end)
      out += #"","name":"exception","attributes":["#
      var exception = OTLPAttributeList()
      exception.add("exception.type", outcome.errorType ?? "Error", to: &out)
      if let message = outcome.errorMessage {
        exception.add("exception.message", message, to: &out)
      }
      out += #"]}],"status":{"code":2"#
      if let message = outcome.errorMessage {
        out += #","message":"#
        JSONText.appendQuoted(message, to: &out)
      }
      out += "}"
    }
    out += "}"
  }

  /// Opens a span with kind INTERNAL (1), up to its attribute list (`"attributes":[`).
  private static func appendSpanStart(
    traceID: String, spanID: String, parentSpanID: String?, name: String, start: Int64,
    end: Int64, to out: inout String
  ) {
    out += #"{"traceId":""#
    out += traceID
    out += #"","spanId":""#
    out += spanID
    out += "\""
    if let parentSpanID {
      out += #","parentSpanId":""#
      out += parentSpanID
      out += "\""
    }
    out += #","name":"#
    JSONText.appendQuoted(name, to: &out)
    out += #","kind":1,"startTimeUnixNano":""#
    out += String(start)
    out += #"","endTimeUnixNano":""#
    out += String(end)
    out += #"","attributes":["#
  }

  /// Appends OTLP `KeyValue`s, separated by commas.

  // MARK: Resource

  /// The session as resource attributes (a JSON list's contents): `service.name` is the
  /// session's name; host, process, OS and runtime use OpenTelemetry's names; the rest are
  /// `sleeve.*`, with each recorded environment variable as `sleeve.env.NAME`.
  static func resourceAttributes(of session: SessionSummary) -> String {
    let metadata = session.metadata
    var out = ""
    var attributes = OTLPAttributeList()
    attributes.add("service.name", session.name, to: &out)
    attributes.add("service.instance.id", session.uuid, to: &out)
    attributes.add("sleeve.session.id", session.uuid, to: &out)
    attributes.add("sleeve.session.name", session.name, to: &out)
    attributes.add("sleeve.session.status", session.status, to: &out)
    attributes.add("sleeve.session.started_unix_ns", session.startedUnixNanoseconds, to: &out)
    let named: [(String, String)] = [
      ("host.name", "host"), ("os.description", "os"),
      ("process.runtime.description", "runtime"), ("sleeve.version", "sleeveVersion"),
      ("sleeve.sqlite_version", "sqliteVersion"), ("sleeve.session.durability", "durability"),
    ]
    for (key, field) in named {
      if let value = metadata[field], !value.isEmpty { attributes.add(key, value, to: &out) }
    }
    if let pid = metadata["pid"].flatMap({ Int64($0) }) {
      attributes.add("process.pid", pid, to: &out)
    }
    let recorded = session.recorded
    if !recorded.tags.isEmpty { attributes.add("sleeve.session.tags", recorded.tags, to: &out) }
    for (name, value) in recorded.sortedEnvironment {
      attributes.add("sleeve.env." + name, value, to: &out)
    }
    return out
  }
}
