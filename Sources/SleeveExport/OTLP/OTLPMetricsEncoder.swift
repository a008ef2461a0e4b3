import SleeveQuery
import SleeveStore

/// Encodes a session as OpenTelemetry metrics in OTLP/JSON: one `ExportMetricsServiceRequest`
/// per session (a line of an `otlp-metrics-json` file, the body of a push): per handler and
/// variant, an `ExponentialHistogram` data point of its ran durations (`sleeve.handler.duration`,
/// nanoseconds: the summary's own buckets, scale and offset, never re-bucketed) and a counter per
/// outcome status (`sleeve.handler.outcomes`). Both are deltas over the session: from its start
/// to when it was last seen.
public enum OTLPMetricsEncoder {
  /// `session`'s request from its summaries; its items are the data points it holds.
  public static func request(
    _ session: SessionSummary, summaries: [HandlerSummary]
  ) -> OTLPRequestBody {
    let start = String(session.startedUnixNanoseconds)
    let end = String(max(session.lastSeenUnixNanoseconds, session.startedUnixNanoseconds))
    var histograms = ""
    var counters = ""
    var points = 0
    for item in summaries {
      let attributes = Self.attributes(of: item)
      let durations = item.summary.durations
      if durations.count > 0 {
        points += 1
        if !histograms.isEmpty { histograms += "," }
        histograms += #"{"attributes":["# + attributes + #"],"startTimeUnixNano":""#
        histograms += start + #"","timeUnixNano":""# + end + #"","count":""#
        histograms += String(durations.count) + #"","sum":"# + Self.number(Double(durations.sum))
        histograms += #","scale":"# + String(durations.scale) + #","zeroCount":""#
        histograms += String(durations.zeroCount) + "\""
        if !durations.counts.isEmpty {
          histograms += #","positive":{"offset":"# + String(durations.offset)
          histograms += #","bucketCounts":["#
          histograms += durations.counts.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        }
        if let minimum = durations.minimum, let maximum = durations.maximum {
          histograms += #","min":"# + Self.number(Double(minimum))
          histograms += #","max":"# + Self.number(Double(maximum))
        }
        histograms += "}"
      }
      for (code, count) in item.summary.statusCounts.enumerated() where count > 0 {
        points += 1
        if !counters.isEmpty { counters += "," }
        var pointAttributes = attributes
        var status = OTLPAttributeList(continuing: !attributes.isEmpty)
        status.add(
          "sleeve.outcome.status", RecordCodes.Status(rawValue: Int64(code))?.name ?? "unknown",
          to: &pointAttributes)
        counters += #"{"attributes":["# + pointAttributes + #"],"startTimeUnixNano":""#
        counters += start + #"","timeUnixNano":""# + end + #"","asInt":""# + String(count) + "\"}"
      }
    }
    var line =
      #"{"resourceMetrics":[{"resource":{"attributes":["#
      + OTLPResource.attributes(of: session)
      + #"]},"scopeMetrics":[{"scope":{"name":"sleeve","version":"#
      + JSONText.quoted(Sleeve.version) + #"},"metrics":["#
    var metrics: [String] = []
    if !histograms.isEmpty {
      metrics.append(
        #"{"name":"sleeve.handler.duration","unit":"ns","#
          + #""description":"Durations of handler invocations that ran (ok and failed).","#
          + #""exponentialHistogram":{"aggregationTemporality":1,"dataPoints":["#
          + histograms + "]}}")
    }
    if !counters.isEmpty {
      metrics.append(
        #"{"name":"sleeve.handler.outcomes","unit":"{outcome}","#
          + #""description":"Handler outcomes by status.","#
          + #""sum":{"aggregationTemporality":1,"isMonotonic":true,"dataPoints":["#
          + counters + "]}}")
    }
    line += metrics.joined(separator: ",") + "]}]}]}"
    return OTLPRequestBody(json: line, items: points, fires: 0...0)
  }

  /// A data point's attributes: control, handler, site, and flag and variant when gated, each
  /// capped as the recorder caps names (`RecordedText.Limit.name`), whatever the file holds.
  private static func attributes(of item: HandlerSummary) -> String {
    var out = ""
    var list = OTLPAttributeList()
    let name = { (text: String) in RecordedText.capped(text, to: .name) }
    list.add("sleeve.control", name(item.control ?? "-"), to: &out)
    list.add("sleeve.handler", name(item.handler), to: &out)
    if let site = item.site { list.add("sleeve.handler.site", name(site), to: &out) }
    if let flag = item.flag, item.variant >= 0 {
      list.add("feature_flag.key", name(flag), to: &out)
      list.add("sleeve.variant", item.variant == 1 ? "on" : "off", to: &out)
    }
    return out
  }

  /// A double as JSON: integers below 2^53 exactly, others in shortest round-trip form.
  private static func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
      return String(Int64(value))
    }
    return "\(value)"
  }
}
