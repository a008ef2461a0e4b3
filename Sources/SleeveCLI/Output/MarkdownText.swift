/// Text made safe in GitHub-flavoured Markdown (a PR comment, a CI job summary), in a table
/// cell or in a line of prose: it renders as the characters it holds and can never become
/// markup, a link, an image, raw HTML, a mention, maths, or a new row or line.
///
/// Works on Unicode scalars, never on `Character`s (a `|` or `<` fused with a combining mark
/// is one `Character`, but still a `|` or a `<` to a Markdown parser). Each of
/// `` \ ` * _ ~ [ ] < > & | # ! @ $ `` gets a backslash before it (CommonMark renders a
/// backslash-escaped ASCII punctuation mark as itself, and no HTML tag, entity or autolink can
/// start at one); controls and bidirectional controls are shown in the terminal's visible
/// notation (`TerminalText.visibleForm(of:)`), so a line break in a name shows as `\n` and the
/// row stays one row. Everything else is kept as it is.
enum MarkdownText {
  /// The scalars that get a backslash.
  static let escapedPunctuation: Set<Unicode.Scalar> = [
    "\\", "`", "*", "_", "~", "[", "]", "<", ">", "&", "|", "#", "!", "@", "$",
  ]

  /// `text` safe in a Markdown table cell or line.
  static func escaped(_ text: String) -> String {
    guard text.utf8.contains(where: mayNeedEscaping) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      if escapedPunctuation.contains(scalar) {
        out += "\\"
        out.unicodeScalars.append(scalar)
      } else if let visible = TerminalText.visibleForm(of: scalar) {
        out += visible
      } else {
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether a UTF-8 byte can start, or be, a scalar `escaped` changes.
  private static func mayNeedEscaping(_ byte: UInt8) -> Bool {
    if byte < 0x80, escapedPunctuation.contains(Unicode.Scalar(byte)) { return true }
    return byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
  }
}
