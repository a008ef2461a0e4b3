import SleeveStore

/// The few JSON texts the recorder writes (string arrays and string-keyed objects), built by
/// hand so the output is stable: keys sorted, no whitespace, RFC 8259 escaping.
enum JSON {
  /// `["a","b"]`.
  static func array(_ values: [String]) -> String {
    "[" + values.map(string).joined(separator: ",") + "]"
  }

  /// `{"k":"v"}` with sorted keys; values are strings.
  static func object(_ values: [String: String]) -> String {
    "{"
      + values.keys.sorted().map { string($0) + ":" + string(values[$0] ?? "") }
      .joined(separator: ",") + "}"
  }

  /// `{"k":<raw JSON>}` with sorted keys; values are already JSON.
  static func object(_ values: [String: RawJSON]) -> String {
    "{"
      + values.keys.sorted().map { string($0) + ":" + (values[$0]?.text ?? "null") }
      .joined(separator: ",") + "}"
  }

  /// A JSON string literal.
  static func string(_ value: String) -> String { JSONText.quoted(value) }
}

/// Text that is already JSON.
struct RawJSON: ExpressibleByStringLiteral {
  let text: String
  init(_ text: String) { self.text = text }
  init(stringLiteral value: String) { text = value }
}
