/// Text made safe inside a GitHub Actions workflow command (`::error title=…::message`), so no
/// recorded text can end the command early or start another one (`::add-mask::`,
/// `::stop-commands::`), and no terminal escape reaches the log (GitHub's log viewer renders
/// ANSI sequences).
///
/// The runner reads its output line by line (CR, LF and CRLF each end a line), takes a line
/// that starts with `::` (after leading spaces) as a command, ends the command's name and
/// properties at the next `::`, splits the properties at `,` and each at its first `=`, and
/// decodes `%25`, `%0D`, `%0A` (and in a property `%3A`, `%2C`) back. So:
///
/// - every scalar that could act on a terminal, CR and LF included, is first shown in
///   `TerminalText`'s visible notation (`\e`, `\r`, `\n`, `\u{202E}`, `\\`…), a recorded line
///   break too; message data is a list of lines, joined by `%0A` (a line break in the
///   annotation, never in the log), so only the message's own structure breaks a line;
/// - then `%` becomes `%25` (so no text can spell an escape), and in a property `:` and `,`
///   become `%3A` and `%2C` (so a title can neither end the properties nor add one).
///
/// A text longer than `limit` UTF-16 units (what the runner counts) once made visible is cut at
/// a scalar boundary and ends with `marker`, so what GitHub keeps says it was cut.
///
/// Works on Unicode scalars, never on `Character`s.
enum WorkflowCommandText {
  /// A property value (`title=`, `file=`): on one line, with `%`, `:` and `,` encoded.
  static func property(_ text: String, limit: Int = .max, marker: String = "…") -> String {
    encoded(cut(TerminalText.escaped(text), limit: limit, marker: marker), isProperty: true)
  }

  /// Message data: each of `lines` on one line, shown as `TerminalText` shows it (a line break
  /// inside one is recorded text: it shows as `\n`), the lines joined by `%0A`.
  static func data(_ lines: [String], limit: Int = .max, marker: String = "…") -> String {
    let visible = lines.map(TerminalText.escaped).joined(separator: "\n")
    return encoded(cut(visible, limit: limit, marker: marker), isProperty: false)
  }

  /// `text` when it has at most `limit` UTF-16 units, else its longest scalar prefix that fits
  /// with `marker` after it (the marker alone, cut too, when even it does not fit).
  static func cut(_ text: String, limit: Int, marker: String) -> String {
    guard text.utf16.count > limit else { return text }
    let room = max(limit - marker.utf16.count, 0)
    var kept = String.UnicodeScalarView()
    var units = 0
    for scalar in text.unicodeScalars {
      let width = UTF16.width(scalar)
      guard units + width <= room else { break }
      units += width
      kept.append(scalar)
    }
    let result = String(kept) + marker
    return result.utf16.count <= limit ? result : cut(marker, limit: limit, marker: "")
  }

  /// `text` (free of controls but the line feeds that separate message lines) with GitHub's
  /// percent escapes.
  private static func encoded(_ text: String, isProperty: Bool) -> String {
    guard
      text.utf8.contains(where: {
        $0 == 0x25 || $0 == 0x0A || $0 == 0x0D || (isProperty && ($0 == 0x3A || $0 == 0x2C))
      })
    else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": out += "%25"
      case "\n": out += "%0A"
      case "\r": out += "%0D"
      case ":" where isProperty: out += "%3A"
      case "," where isProperty: out += "%2C"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
