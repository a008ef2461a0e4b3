/// A receiver's text (an error body, a partial success's `errorMessage`, a transport error)
/// made fit for one line of Sleeve's output.
///
/// Works on Unicode scalars: every C0 and C1 control (ESC, CR, LF, BEL, …), DEL, bidirectional
/// control and line or paragraph separator becomes a space, so no terminal escape sequence can
/// start and no line can break; runs of spaces collapse and the ends are trimmed. The result
/// is at most `limit` UTF-8 bytes, cut on a scalar boundary and ended with `…` when cut.
enum ReceiverText {
  /// The default bound: enough for any useful message, short enough for one line.
  static let defaultLimit = 300

  /// `text` as one safe, bounded line; `nil` when nothing printable is left.
  static func oneLine(_ text: String, limit: Int = defaultLimit) -> String? {
    var out = String.UnicodeScalarView()
    var bytes = 0
    var pendingSpace = false
    for scalar in text.unicodeScalars {
      if isBlankOrControl(scalar) {
        pendingSpace = !out.isEmpty
        continue
      }
      let needed = (pendingSpace ? 1 : 0) + UTF8.width(scalar)
      guard bytes + needed <= limit else {
        out.append("…")
        break
      }
      if pendingSpace { out.append(" ") }
      out.append(scalar)
      bytes += needed
      pendingSpace = false
    }
    return out.isEmpty ? nil : String(out)
  }

  /// Text from bytes a receiver sent: UTF-8 with invalid sequences replaced, made one line.
  static func oneLine(bytes: some Collection<UInt8>, limit: Int = defaultLimit) -> String? {
    oneLine(String(decoding: Array(bytes.prefix(limit * 4)), as: UTF8.self), limit: limit)
  }

  private static func isBlankOrControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E,
      0x2066...0x2069:
      true
    default: false
    }
  }
}
