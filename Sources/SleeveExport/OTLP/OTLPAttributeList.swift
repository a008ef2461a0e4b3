import SleeveStore

/// OTLP/JSON `KeyValue` attributes, appended one by one to a text: the one home of their
/// form (`{"key":…,"value":{"stringValue":…}}`), for traces and metrics alike. Keys and string
/// values are escaped by `JSONText`; integers are written as strings, as OTLP/JSON asks.
struct OTLPAttributeList {
  private var count = 0

  /// A list starting empty.
  init() {}

  /// A list that appends after attributes already written (each added one is preceded by a
  /// comma when `continuing`).
  init(continuing: Bool) {
    count = continuing ? 1 : 0
  }

  private mutating func key(_ key: String, _ type: String, to out: inout String) {
    if count > 0 { out += "," }
    count += 1
    out += #"{"key":"#
    JSONText.appendQuoted(key, to: &out)
    out += #","value":{""#
    out += type
    out += #"":"#
  }

  mutating func add(_ name: String, _ value: String, to out: inout String) {
    key(name, "stringValue", to: &out)
    JSONText.appendQuoted(value, to: &out)
    out += "}}"
  }

  mutating func add(_ name: String, _ value: Int64, to out: inout String) {
    key(name, "intValue", to: &out)
    out += "\"" + String(value) + "\"}}"
  }

  mutating func add(_ name: String, _ value: Bool, to out: inout String) {
    key(name, "boolValue", to: &out)
    out += value ? "true}}" : "false}}"
  }

  mutating func add(_ name: String, _ values: [String], to out: inout String) {
    key(name, "arrayValue", to: &out)
    out += #"{"values":["#
    for (index, value) in values.enumerated() {
      out += index == 0 ? #"{"stringValue":"# : #",{"stringValue":"#
      JSONText.appendQuoted(value, to: &out)
      out += "}"
    }
    out += "]}}}"
  }
}
