import Foundation
import SleeveStore

/// The configured header values (`OTEL_EXPORTER_OTLP_HEADERS`), found in a receiver's text and
/// replaced by `[redacted]` before the text is printed or recorded: a receiver that echoes the
/// request's headers in its error (`400: bad header Authorization: Bearer …`) cannot put a
/// credential on standard error or into `otlp_delivery_state.last_error`.
///
/// Each value is looked for, ignoring case, as sent and in the encodings a receiver is likely
/// to echo it in: percent-encoded (`%20` or `+` for a space, hex in either case), JSON-escaped
/// (with `\/` or `/`) and base64. Ignoring case can only redact more. So is each space-separated part of a value at least
/// `minimumPartLength` bytes long (the token of `Bearer TOKEN`, echoed without its scheme).
/// Every value is redacted, whatever its length (one shorter than `minimumPartLength` only
/// where it stands alone, not inside a word). The forms are compared as `ReceiverText`
/// shows text (controls and runs of blanks made one space), so a value echoed with its spaces
/// doubled or turned into tabs is found too.
struct HeaderRedaction: Sendable, Equatable {
  /// What a value found is replaced by.
  static let marker = "[redacted]"
  /// The shortest part of a value redacted on its own: shorter parts (`Bearer`, `Basic`) name
  /// a scheme, not a secret.
  static let minimumPartLength = 8

  /// The forms looked for, longest first (so a longer form is replaced before a part of it).
  let forms: [String]

  /// Nothing to redact.
  static let none = HeaderRedaction(forms: [])

  /// Whether there is nothing to redact.
  var isEmpty: Bool { forms.isEmpty }

  /// The forms of every value of `headers`.
  init(headers: OTLPHeaders) {
    var forms = Set<String>()
    for field in headers.fields where !field.value.isEmpty {
      let parts = field.value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      let secrets = [field.value] + parts.filter { $0.utf8.count >= Self.minimumPartLength }
      for secret in secrets {
        for form in Self.encodings(of: secret) {
          if let shown = ReceiverText.flattened(form) { forms.insert(shown) }
        }
      }
    }
    self.init(forms: forms.sorted { ($0.utf8.count, $0) > ($1.utf8.count, $1) })
  }

  private init(forms: [String]) { self.forms = forms }

  /// `text` with every form replaced by `marker`. A form shorter than `minimumPartLength`
  /// (a value such as `on` or `1`) is replaced only where it stands alone, not inside a word
  /// or a number, so "connection refused" keeps its letters when a header's value is `on`.
  func apply(_ text: String) -> String {
    var text = text
    for form in forms where text.range(of: form, options: .caseInsensitive) != nil {
      if form.utf8.count >= Self.minimumPartLength {
        text = text.replacingOccurrences(of: form, with: Self.marker, options: .caseInsensitive)
      } else {
        text = Self.replacingWhole(form, in: text)
      }
    }
    return text
  }

  /// `text` with `form` replaced, ignoring case, where no letter or digit touches it.
  private static func replacingWhole(_ form: String, in text: String) -> String {
    let pattern =
      "(?<![\\p{L}\\p{N}])" + NSRegularExpression.escapedPattern(for: form) + "(?![\\p{L}\\p{N}])"
    guard let expression = try? NSRegularExpression(pattern: pattern, options: .caseInsensitive)
    else {
      // A pattern that cannot compile: redact everywhere rather than not at all.
      return text.replacingOccurrences(of: form, with: marker, options: .caseInsensitive)
    }
    return expression.stringByReplacingMatches(
      in: text, range: NSRange(text.startIndex..., in: text),
      withTemplate: NSRegularExpression.escapedTemplate(for: marker))
  }

  /// `secret` as sent and as a receiver may echo it.
  private static func encodings(of secret: String) -> [String] {
    let json = String(JSONText.quoted(secret).dropFirst().dropLast())
    return [
      secret, percentEncoded(secret, space: "%20"), percentEncoded(secret, space: "+"),
      json, json.replacingOccurrences(of: "/", with: "\\/"),
      Data(secret.utf8).base64EncodedString(),
    ]
  }

  /// Every byte but RFC 3986's unreserved ones as `%XX`, a space as `space`.
  private static func percentEncoded(_ text: String, space: String) -> String {
    let digits = Array("0123456789ABCDEF")
    var out = ""
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
        UInt8(ascii: "_"), UInt8(ascii: "~"):
        out.unicodeScalars.append(Unicode.Scalar(byte))
      case UInt8(ascii: " "):
        out += space
      default:
        out += "%" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
      }
    }
    return out
  }
}
