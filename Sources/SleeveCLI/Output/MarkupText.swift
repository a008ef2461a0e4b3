/// Text made safe inside HTML and SVG (inline in the HTML report, or as XML), in element
/// content and in quoted attribute values alike.
///
/// Works on Unicode scalars, never on `Character`s: `"` followed by the combining mark U+0338
/// is one `Character` that is not equal to `"`, yet a browser still ends the attribute at the
/// quote. `&`, `<`, `>`, `"` and `'` become `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;`;
/// controls and bidirectional controls are shown in the terminal's visible notation
/// (`TerminalText.visibleForm(of:)`), which also keeps the SVG well-formed XML (XML 1.0 allows
/// no C0 control but TAB, LF and CR, not even as a character reference). Everything else is
/// kept as it is.
enum MarkupText {
  /// `text` safe in HTML and SVG text and attribute values.
  static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: mayNeedEscaping) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "\"": out += "&quot;"
      case "'": out += "&#39;"
      default:
        if let visible = TerminalText.visibleForm(of: scalar) {
          out += visible
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out
  }

  /// Whether a UTF-8 byte can start, or be, a scalar `escaped` changes.
  private static func mayNeedEscaping(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x26, 0x3C, 0x3E, 0x22, 0x27: true
    default: byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }
  }
}
