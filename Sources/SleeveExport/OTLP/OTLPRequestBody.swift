/// One OTLP/JSON request body as an encoder hands it out: an `ExportTraceServiceRequest` or
/// `ExportMetricsServiceRequest` of one session, with what identifies its place in the
/// session's stream (so a delivery can be resumed and checked).
public struct OTLPRequestBody: Sendable {
  /// The request, compact JSON on one line (no trailing newline).
  public var json: String
  /// Spans (traces) or data points (metrics) it holds.
  public var items: Int
  /// The first and last fire group it holds, by fire number (metrics: the whole session,
  /// `0...0`).
  public var fires: ClosedRange<Int64>
  /// Where its items begin in `json`'s UTF-8 bytes: what comes before (the resource, whose
  /// attributes include the session's status) may change while the items stay the same.
  public var itemsOffset: Int

  /// A body of `items` items covering `fires`, the items from UTF-8 offset `itemsOffset`.
  public init(json: String, items: Int, fires: ClosedRange<Int64>, itemsOffset: Int = 0) {
    self.json = json
    self.items = items
    self.fires = fires
    self.itemsOffset = itemsOffset
  }
}
