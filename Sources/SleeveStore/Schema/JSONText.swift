/// JSON string literals for the JSON the project writes (session metadata columns, `--format
/// json`): RFC 8259 escaping, nothing else escaped.
public enum JSONText {
  /// `value` as a JSON string literal, quotes included.
  public static func quoted(_ value: String) -> String {
    var out = ""
    appendQuoted(value, to: &out)
    return out
  }

  /// Appends `value` as a JSON string literal, quotes included, to `out`.
  public static func appendQuoted(_ value: String, to out: inout String) {
    out += "\""
    let needsEscaping = value.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
    guard needsEscaping else {
      out += value
      out += "\""
      return
    }
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case let control where control.value < 0x20:
        let hex = String(control.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
  }
}
