import Foundation

/// What an OTLP/HTTP response body says, read from at most the bounded prefix the sender kept.
///
/// A 2xx body may be an `Export…ServiceResponse` in JSON with a `partialSuccess` (its count as
/// an int64 string or a number, in camelCase or snake_case as proto3 JSON allows); a failure
/// body is a `google.rpc.Status` in JSON (its `message`) or plain text. Anything else
/// (protobuf, garbage, a cut body) reads as "no partial success" or as the text it holds.
enum OTLPResponseBody {
  /// The partial success in a 2xx `body` for `signal`: rejected items (0 if none or unreadable)
  /// and the receiver's message, one line, with `redaction`'s values replaced.
  static func partialSuccess(
    _ body: [UInt8], signal: OTLPSignal, redacting redaction: HeaderRedaction
  ) -> (Int64, String?) {
    guard let object = jsonObject(body),
      let partial = (object["partialSuccess"] ?? object["partial_success"]) as? [String: Any]
    else { return (0, nil) }
    let keys =
      signal == .traces
      ? ["rejectedSpans", "rejected_spans"] : ["rejectedDataPoints", "rejected_data_points"]
    let count = keys.lazy.compactMap { partial[$0] }.first.flatMap(int64) ?? 0
    let message = (partial["errorMessage"] ?? partial["error_message"]) as? String
    return (max(count, 0), message.flatMap { ReceiverText.oneLine($0, redacting: redaction) })
  }

  /// The receiver's reason in a failure `body`: a `google.rpc.Status` JSON `message`, else the
  /// body as text; one line, bounded, with `redaction`'s values replaced; `nil` when the body
  /// says nothing.
  static func failureMessage(_ body: [UInt8], redacting redaction: HeaderRedaction) -> String? {
    if let object = jsonObject(body), let message = object["message"] as? String {
      return ReceiverText.oneLine(message, redacting: redaction)
    }
    return ReceiverText.oneLine(bytes: body, redacting: redaction)
  }

  private static func jsonObject(_ body: [UInt8]) -> [String: Any]? {
    guard body.first(where: { $0 > 0x20 }) == UInt8(ascii: "{") else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
  }

  /// An int64 from proto3 JSON: a decimal string or a whole number.
  private static func int64(_ value: Any) -> Int64? {
    if let text = value as? String { return Int64(text) }
    if let number = value as? NSNumber {
      let double = number.doubleValue
      guard double.isFinite, double.rounded() == double, abs(double) < 9e18 else { return nil }
      return number.int64Value
    }
    return nil
  }
}
