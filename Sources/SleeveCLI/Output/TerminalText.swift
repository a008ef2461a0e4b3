/// Text made safe for a terminal: recorded names, paths and arguments shown in tables and error
/// lines can never move the cursor, retitle the window, ring the bell, clear the screen, start a
/// new line or reorder what follows.
///
/// Works on Unicode scalars, never on `Character`s (a control fused with a combining mark is
/// one `Character`, but still a control). Each scalar that could act on the terminal is shown
/// in a visible notation, as `ls -b` and `git` do:
///
/// | scalar | shown as |
/// |---|---|
/// | ESC, BEL, BS, TAB, LF, VT, FF, CR | `\e`, `\a`, `\b`, `\t`, `\n`, `\v`, `\f`, `\r` |
/// | other C0 controls and DEL | `\x00` … `\x1F`, `\x7F` |
/// | C1 controls (U+0080–U+009F) | `\u{80}` … `\u{9F}` |
/// | bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) | `\u{202E}` … |
/// | line and paragraph separators (U+2028, U+2029) | `\u{2028}`, `\u{2029}` |
/// | backslash | `\\` (so every escape reads one way) |
///
/// Everything else is shown as it is. Example: `ok\u{1B}]0;PWNED\u{07}` prints as
/// `ok\e]0;PWNED\a`, on one line.
enum TerminalText {
  /// `text` with every scalar that could act on a terminal in the visible notation above.
  static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: mayNeedEscaping) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      if scalar == "\\" {
        out += "\\\\"
      } else if let visible = visibleForm(of: scalar) {
        out += visible
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// The visible notation of a control, bidirectional control or line separator, or `nil` for
  /// a scalar shown as it is. Shared by every human-readable format (tables, Markdown, HTML),
  /// so a control reads the same in each; backslash is left to each format.
  static func visibleForm(of scalar: Unicode.Scalar) -> String? {
    switch scalar.value {
    case 0x07: "\\a"
    case 0x08: "\\b"
    case 0x09: "\\t"
    case 0x0A: "\\n"
    case 0x0B: "\\v"
    case 0x0C: "\\f"
    case 0x0D: "\\r"
    case 0x1B: "\\e"
    case 0x00...0x1F, 0x7F: "\\x" + hex(scalar.value, digits: 2)
    case 0x80...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029:
      "\\u{" + hex(scalar.value, digits: 1) + "}"
    default: nil
    }
  }

  /// Whether a UTF-8 byte can start, or be, a scalar `escaped` changes: C0, DEL, backslash,
  /// and the lead bytes of C1 (0xC2), U+061C (0xD8) and U+2000–U+2FFF (0xE2).
  private static func mayNeedEscaping(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == 0x7F || byte == 0x5C || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
  }

  /// Upper-case hex with at least `digits` digits.
  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(digits - text.count, 0)) + text
  }
}
