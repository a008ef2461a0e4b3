/// A receiver's text (an error body, a partial success's `errorMessage`, a transport error)
/// made fit for one line of Sleeve's output.
///
/// Works on Unicode scalars: every C0 and C1 control (ESC, CR, LF, BEL, …), DEL, bidirectional
/// control and line or paragraph separator becomes a space, so no terminal escape sequence can
/// start and no line can break; runs of spaces collapse and the ends are trimmed. The
/// configured header values are then redacted (`HeaderRedaction`), on the whole text, before
/// it is bounded, so a cut can never leave part of a value. The result is at most `limit`
/// UTF-8 bytes, cut on a scalar boundary and ended with `…` when cut.
enum ReceiverText {
  /// The default bound: enough for any useful message, short enough for one line.
  static let defaultLimit = 300

  /// `text` as one safe, bounded line with `redaction`'s values replaced; `nil` when nothing
  /// printable is left.
  static func oneLine(
    _ text: String, limit: Int = defaultLimit, redacting redaction: HeaderRedaction
  ) -> String? {
    guard !redaction.isEmpty else { return bounded(text, limit: limit) }
    guard let flat = flattened(text) else { return nil }
    return bounded(redaction.apply(flat), limit: limit)
  }

  /// `text` made one line as `oneLine` makes it, without a bound.
  static func flattened(_ text: String) -> String? {
    bounded(text, limit: Int.max)
  }

  private static func bounded(_ text: String, limit: Int) -> String? {
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
  /// With nothing to redact only what can show is decoded; otherwise all of it (a value past
  /// the bound must not be cut in two before it is looked for).
  static func oneLine(
    bytes: some Collection<UInt8>, limit: Int = defaultLimit, redacting redaction: HeaderRedaction
  ) -> String? {
    let shown = redaction.isEmpty ? Array(bytes.prefix(limit * 4)) : Array(bytes)
    return oneLine(String(decoding: shown, as: UTF8.self), limit: limit, redacting: redaction)
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
