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

  /// A body of `items` items covering `fires`.
  public init(json: String, items: Int, fires: ClosedRange<Int64>) {
    self.json = json
    self.items = items
    self.fires = fires
  }
}
