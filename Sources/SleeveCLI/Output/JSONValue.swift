import SleeveStore

/// A JSON value whose objects keep their keys in the order given, so output is stable.
indirect enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.text == rhs.text }

  /// A number, or `null` for `nil` and non-finite values.
  static func number(_ value: Double?) -> JSONValue {
    guard let value, value.isFinite else { return .null }
    return .double(value)
  }

  /// An integer, or `null` for `nil`.
  static func integer<Value: BinaryInteger>(_ value: Value?) -> JSONValue {
    value.map { .int(Int64($0)) } ?? .null
  }

  /// A string, or `null` for `nil`.
  static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

  /// Pretty-printed with two-space indentation.
  var text: String {
    var out = ""
    write(into: &out, indent: 0)
    return out
  }

  private func write(into out: inout String, indent: Int) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .int(let value): out += String(value)
    case .double(let value): out += value.isFinite ? Formatting.raw(value) : "null"
    case .string(let value): out += Self.quoted(value)
    case .array(let values):
      guard !values.isEmpty else {
        out += "[]"
        return
      }
      out += "[\n"
      for (index, value) in values.enumerated() {
        out += String(repeating: "  ", count: indent + 1)
        value.write(into: &out, indent: indent + 1)
        out += index == values.count - 1 ? "\n" : ",\n"
      }
      out += String(repeating: "  ", count: indent) + "]"
    case .object(let members):
      guard !members.isEmpty else {
        out += "{}"
        return
      }
      out += "{\n"
      for (index, (key, value)) in members.enumerated() {
        out += String(repeating: "  ", count: indent + 1) + Self.quoted(key) + ": "
        value.write(into: &out, indent: indent + 1)
        out += index == members.count - 1 ? "\n" : ",\n"
      }
      out += String(repeating: "  ", count: indent) + "}"
    }
  }

  static func quoted(_ value: String) -> String { JSONText.quoted(value) }
}
