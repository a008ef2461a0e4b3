import SleeveQuery
import SleeveStore

/// Encodes sessions as OpenTelemetry traces in OTLP/JSON: `ExportTraceServiceRequest`s, each
/// handed to `emit` once complete. The same requests are lines of an `otlp-json` file (the
/// OpenTelemetry Collector's `otlpjsonfile` receiver reads them) and bodies of an OTLP/HTTP
/// push, so both carry the same spans with the same ids.
///
/// Each fire is a span (a child of the fire that sent it, when that was recorded) with one
/// child span per handler invocation. A `failed` invocation has status ERROR and an
/// `exception` event. Each session is one resource, described by its metadata. A request holds
/// at most `spansPerRequest` spans and ends at the first fire group that takes it past
/// `bytesPerRequest` with at least as many bytes of spans as of resource, so where requests
/// are cut depends only on what came before: encoding a session twice cuts it the same way.
/// Memory stays flat: one request is held at a time.
///
/// Output is bounded by the content: every text is capped as the recorder caps it (the
/// session's by `SessionSummary`, the rows' by `forEachFireGroup`), and the resource, the one
/// text repeated per request, is at most the size of the spans of any request cut by its size,
/// so it at most doubles them (plus one resource per session and per `spansPerRequest` spans).
public final class OTLPTraceEncoder {
  /// The defaults for a file line: 1,000 spans or 256 KiB, well under the 1 MiB the
  /// Collector's file reader takes per line.
  public static let fileLimits = (spans: 1_000, bytes: 256 << 10)

  private let spansPerRequest: Int
  private let bytesPerRequest: Int
  private let emit: (OTLPRequestBody) throws -> Void
  private var resourcePrefix = ""
  private var body = ""
  private var spanCount = 0
  private var firstFire: Int64 = 0
  private var lastFire: Int64 = 0
  private var sessionUUID = ""

  /// An encoder handing each complete request to `emit`.
  ///
  /// - Parameters:
  ///   - spansPerRequest: The most spans a request holds (at least 1).
  ///   - bytesPerRequest: A request ends once it passes this many bytes (a fire group is
  ///     never split, so one group can take it over).
  public init(
    spansPerRequest: Int = fileLimits.spans, bytesPerRequest: Int = fileLimits.bytes,
    emit: @escaping (OTLPRequestBody) throws -> Void
  ) {
    self.spansPerRequest = max(spansPerRequest, 1)
    self.bytesPerRequest = max(bytesPerRequest, 1)
    self.emit = emit
  }

  /// Starts a session's spans; the previous session's are handed out first.
  public func begin(_ session: SessionSummary) throws {
    try flush()
    sessionUUID = session.uuid
    resourcePrefix =
      #"{"resourceSpans":[{"resource":{"attributes":["#
      + OTLPResource.attributes(of: session)
      + #"]},"scopeSpans":[{"scope":{"name":"sleeve","version":"#
      + JSONText.quoted(Sleeve.version) + #"},"spans":["#
  }

  /// Adds a fire and its invocations; hands out the request they complete, if any.
  public func add(_ group: ExportFireGroup) throws {
    let key = group.fire?.number ?? group.outcomes.first?.fireNumber ?? 0
    let rootFire = group.fire?.rootNumber ?? key
    let traceID = OTLPIdentifiers.traceID(sessionUUID: sessionUUID, rootFire: rootFire)
    if let fire = group.fire {
      startSpan(key)
      Self.appendSpan(of: fire, outcomes: group.outcomes, traceID: traceID, to: &body)
    }
    for outcome in group.outcomes {
      startSpan(key)
      Self.appendSpan(of: outcome, traceID: traceID, to: &body)
    }
    // The resource is repeated in every request: a request ends by its size only once its
    // spans take at least as many bytes as its resource, so however large the resource (a
    // session with 64 long environment variables) it never outweighs the spans it carries.
    let bytes = body.utf8.count
    if spanCount >= spansPerRequest
      || (bytes >= bytesPerRequest
        && bytes - resourcePrefix.utf8.count >= resourcePrefix.utf8.count)
    {
      try flush()
    }
  }

  /// Hands out the spans not yet handed out, as a last (shorter) request.
  public func flush() throws {
    guard spanCount > 0 else { return }
    body += "]}]}]}"
    let request = OTLPRequestBody(
      json: body, items: spanCount, fires: firstFire...lastFire,
      itemsOffset: resourcePrefix.utf8.count)
    body = ""
    spanCount = 0
    try emit(request)
  }

  private func startSpan(_ fire: Int64) {
    if spanCount == 0 {
      body.reserveCapacity(bytesPerRequest + 4_096)
      body += resourcePrefix
      firstFire = fire
      lastFire = fire
    } else {
      body += ","
      lastFire = max(lastFire, fire)
    }
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
}
