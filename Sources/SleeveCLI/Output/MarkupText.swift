/// Text made safe inside HTML, SVG and XML (the HTML report, its inline SVG, JUnit XML), in
/// element content and in quoted attribute values alike.
///
/// Works on Unicode scalars, never on `Character`s: `"` followed by the combining mark U+0338
/// is one `Character` that is not equal to `"`, yet a browser still ends the attribute at the
/// quote. `&`, `<`, `>`, `"` and `'` become `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#39;`;
/// controls and bidirectional controls are shown in the terminal's visible notation
/// (`TerminalText.visibleForm(of:)`), and the noncharacters U+FFFE and U+FFFF as `\u{FFFE}`
/// and `\u{FFFF}`. That keeps every output well-formed XML 1.0, which allows no C0 control but
/// TAB, LF and CR and neither noncharacter, not even as a character reference. Everything else
/// is kept as it is.
enum MarkupText {
  /// `text` safe in HTML, SVG and XML text and attribute values, on one line: a line break is
  /// shown as `\n` (an XML reader would turn a raw one in an attribute into a space).
  static func escaped(_ text: String) -> String {
    escaped(text, keepingLineBreaks: false)
  }

  /// `text` safe in HTML, SVG and XML element content, its line feeds kept as they are (the
  /// body of a JUnit `<failure>`, a `<system-out>`). Everything else as `escaped(_:)`; a
  /// carriage return is still shown as `\r`, since an XML reader would turn it into a line feed.
  static func escapedKeepingLineBreaks(_ text: String) -> String {
    escaped(text, keepingLineBreaks: true)
  }

  private static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
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
      case "\n" where keepingLineBreaks: out += "\n"
      case "\u{FFFE}": out += "\\u{FFFE}"
      case "\u{FFFF}": out += "\\u{FFFF}"
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

  /// Whether a UTF-8 byte can start, or be, a scalar `escaped` changes: the five markup
  /// characters, C0, DEL, and the lead bytes of C1 (0xC2), U+061C (0xD8), U+2000–U+2FFF (0xE2)
  /// and U+F000–U+FFFF (0xEF, for the noncharacters).
  private static func mayNeedEscaping(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x26, 0x3C, 0x3E, 0x22, 0x27: true
    default:
      byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 || byte == 0xEF
    }
  }
}
