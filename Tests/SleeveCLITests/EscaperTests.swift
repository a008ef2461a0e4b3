import Foundation
import SleeveStore
import SleeveTestSupport
import Testing

@testable import SleeveCLI

/// Every escaper walks Unicode scalars or UTF-8 bytes: a punctuation mark fused with a
/// combining mark (one `Character`, not equal to the mark) is still escaped.
@Suite("Escapers")
struct EscaperTests {
  static let punctuation = Array("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~".unicodeScalars)
  static let combiningMarks: [Unicode.Scalar] = ["\u{0338}", "\u{0301}", "\u{20D2}"]
  /// What CommonMark and GitHub give a meaning to inside a line (the test's own list).
  static let markdownSignificant = Set("\\`*_~[]<>&|#!@$".unicodeScalars)
  /// Every scalar that can act on a terminal.
  static let terminalControls: [Unicode.Scalar] =
    (Array(0x00...0x1F) + [0x7F] + Array(0x80...0x9F)
    + [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E]
    + [0x2066, 0x2067, 0x2068, 0x2069, 0x2028, 0x2029]).map { Unicode.Scalar(UInt32($0))! }

  /// `a`, the mark, the combining mark, `b`, for every punctuation mark.
  static func fused(_ mark: Unicode.Scalar) -> [String] {
    punctuation.map { "a" + String($0) + String(mark) + "b" }
  }

  @Test(
    "HTML and SVG: no raw quote, apostrophe, angle bracket or bare ampersand survives",
    arguments: combiningMarks)
  func markupEscapesOnScalars(mark: Unicode.Scalar) throws {
    for input in Self.fused(mark) {
      let escaped = MarkupText.escaped(input)
      #expect(try Self.htmlDecoded(escaped) == input, "\(input.debugDescription) → \(escaped)")
    }
  }

  @Test(
    "Markdown: every significant punctuation mark is backslash-escaped", arguments: combiningMarks)
  func markdownEscapesOnScalars(mark: Unicode.Scalar) throws {
    for input in Self.fused(mark) {
      let escaped = MarkdownText.escaped(input)
      #expect(try Self.markdownDecoded(escaped) == input, "\(input.debugDescription) → \(escaped)")
    }
  }

  @Test("CSV: each value is one field of one record, read back exactly", arguments: combiningMarks)
  func csvQuotesOnBytes(mark: Unicode.Scalar) throws {
    for input in Self.fused(mark) + Self.punctuation.map({ String($0) + String(mark) }) {
      let record = CSVText.record([input, "next"], formulas: .kept)
      #expect(try Self.csvParsed(record) == [[input, "next"]], "\(input.debugDescription)")
    }
  }

  @Test(
    "CSV: a formula character fused with a combining mark is still neutralized",
    arguments: combiningMarks)
  func csvNeutralizesOnBytes(mark: Unicode.Scalar) throws {
    for trigger in ["=", "+", "-", "@"] {
      let input = trigger + String(mark) + "HYPERLINK(\"http://evil.example\")"
      let field = try #require(
        try Self.csvParsed(CSVText.record([input], formulas: .neutralized)).first?.first)
      #expect(field == "'" + input)
    }
  }

  @Test("JSON: every value parses back exactly", arguments: combiningMarks)
  func jsonEscapesOnScalars(mark: Unicode.Scalar) throws {
    let inputs = Self.fused(mark) + Self.terminalControls.map { "x" + String($0) + String(mark) }
    for input in inputs {
      let text = JSONValue.string(input).text
      let parsed = try JSONSerialization.jsonObject(
        with: Data(text.utf8), options: [.fragmentsAllowed])
      #expect(parsed as? String == input, "\(input.debugDescription) → \(text)")
    }
  }

  @Test(
    "terminal: punctuation fused with a combining mark passes as it is, backslash doubled",
    arguments: combiningMarks)
  func terminalKeepsPunctuation(mark: Unicode.Scalar) throws {
    for input in Self.fused(mark) {
      let escaped = TerminalText.escaped(input)
      var doubled = String.UnicodeScalarView()
      for scalar in input.unicodeScalars {
        if scalar == "\\" { doubled.append(scalar) }
        doubled.append(scalar)
      }
      #expect(escaped.unicodeScalars.elementsEqual(doubled))
      #expect(try Self.terminalDecoded(escaped) == input)
    }
  }

  @Test(
    "terminal: no control, C1 or bidirectional scalar survives, even fused with a mark",
    arguments: combiningMarks)
  func terminalEscapesEveryControl(mark: Unicode.Scalar) throws {
    for control in Self.terminalControls {
      let input = "ok" + String(control) + String(mark) + "]0;PWNED"
      let escaped = TerminalText.escaped(input)
      #expect(!escaped.unicodeScalars.contains(control), "U+\(String(control.value, radix: 16))")
      #expect(try Self.terminalDecoded(escaped) == input)
      for escaper in [MarkupText.escaped, MarkdownText.escaped] {
        #expect(!escaper(input).unicodeScalars.contains(control))
      }
    }
  }

  @Test("terminal: the issue's title-and-clear sequence reads as text on one line")
  func terminalShowsTheAttack() {
    #expect(TerminalText.escaped("ok\u{1B}]0;PWNED\u{07}\u{1B}[2J") == #"ok\e]0;PWNED\a\e[2J"#)
    #expect(TerminalText.escaped("a\r\nb\u{202E}c\u{9B}") == #"a\r\nb\u{202E}c\u{9B}"#)
    #expect(TerminalText.escaped("plain näme ✓") == "plain näme ✓")
  }

  @Test("terminal: the notation reads back to the original, for random mixes (seeded)")
  func terminalNotationIsUnambiguous() throws {
    let seed: UInt64 = 0x5EED_7E37
    var generator = SeededGenerator(seed: seed)
    let alphabet = Self.terminalControls + Self.punctuation + ["x", "e", "n", "u", "{", "\u{0338}"]
    for _ in 0..<500 {
      var input = String.UnicodeScalarView()
      for _ in 0..<Int.random(in: 0...12, using: &generator) {
        input.append(alphabet.randomElement(using: &generator)!)
      }
      let text = String(input)
      let escaped = TerminalText.escaped(text)
      #expect(try Self.terminalDecoded(escaped) == text, "seed \(seed): \(text.debugDescription)")
      #expect(
        !escaped.unicodeScalars.contains { Self.terminalControls.contains($0) }, "seed \(seed)")
    }
  }

  // MARK: Independent readers

  struct Malformed: Error { let reason: String }

  /// Decodes the five entities; throws on a raw `"`, `'`, `<`, `>` or an unknown `&`.
  static func htmlDecoded(_ text: String) throws -> String {
    let entities = ["&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'"]
    var out = ""
    var scalars = Substring(text).unicodeScalars[...]
    while let scalar = scalars.first {
      if "\"'<>".unicodeScalars.contains(scalar) { throw Malformed(reason: "raw \(scalar)") }
      if scalar == "&" {
        guard
          let (entity, value) = entities.first(where: {
            scalars.starts(with: $0.key.unicodeScalars)
          })
        else { throw Malformed(reason: "bare &") }
        out += value
        scalars = scalars.dropFirst(entity.unicodeScalars.count)
        continue
      }
      out.unicodeScalars.append(scalar)
      scalars = scalars.dropFirst()
    }
    return out
  }

  /// Drops the backslash before each significant mark; throws on one without it.
  static func markdownDecoded(_ text: String) throws -> String {
    var out = String.UnicodeScalarView()
    var iterator = text.unicodeScalars.makeIterator()
    while let scalar = iterator.next() {
      if scalar == "\\" {
        guard let next = iterator.next(), markdownSignificant.contains(next) else {
          throw Malformed(reason: "backslash before a mark with no meaning")
        }
        out.append(next)
      } else if markdownSignificant.contains(scalar) {
        throw Malformed(reason: "unescaped \(scalar)")
      } else {
        out.append(scalar)
      }
    }
    return String(out)
  }

  /// Reads `\\`, `\a` … `\e`, `\xHH` and `\u{H…}` back; throws on anything else after `\`.
  static func terminalDecoded(_ text: String) throws -> String {
    let simple: [Unicode.Scalar: Unicode.Scalar] = [
      "\\": "\\", "a": "\u{07}", "b": "\u{08}", "t": "\t", "n": "\n", "v": "\u{0B}",
      "f": "\u{0C}", "r": "\r", "e": "\u{1B}",
    ]
    var out = String.UnicodeScalarView()
    var scalars = Array(text.unicodeScalars)[...]
    while let scalar = scalars.popFirst() {
      guard scalar == "\\" else {
        out.append(scalar)
        continue
      }
      guard let kind = scalars.popFirst() else { throw Malformed(reason: "trailing \\") }
      if let value = simple[kind] {
        out.append(value)
      } else if kind == "x" {
        let digits = String(String.UnicodeScalarView(scalars.prefix(2)))
        scalars = scalars.dropFirst(2)
        guard let value = UInt32(digits, radix: 16) else { throw Malformed(reason: "\\x") }
        out.append(Unicode.Scalar(value)!)
      } else if kind == "u", scalars.popFirst() == "{" {
        let digits = String(String.UnicodeScalarView(scalars.prefix { $0 != "}" }))
        scalars = scalars.dropFirst(digits.unicodeScalars.count + 1)
        guard let value = UInt32(digits, radix: 16).flatMap(Unicode.Scalar.init) else {
          throw Malformed(reason: "\\u")
        }
        out.append(value)
      } else {
        throw Malformed(reason: "unknown escape \\\(kind)")
      }
    }
    return String(out)
  }

  /// RFC 4180 on UTF-8 bytes: records end with LF outside quotes.
  static func csvParsed(_ text: String) throws -> [[String]] {
    var records: [[String]] = []
    var record: [String] = []
    var field: [UInt8] = []
    var quoted = false
    var bytes = Array(text.utf8)[...]
    var fieldStart = true
    while let byte = bytes.popFirst() {
      if quoted {
        if byte == 0x22 {
          if bytes.first == 0x22 {
            field.append(0x22)
            bytes = bytes.dropFirst()
          } else {
            quoted = false
          }
        } else {
          field.append(byte)
        }
        continue
      }
      switch byte {
      case 0x22 where fieldStart: quoted = true
      case 0x22: throw Malformed(reason: "quote inside an unquoted field")
      case 0x2C:
        record.append(String(decoding: field, as: UTF8.self))
        field = []
        fieldStart = true
        continue
      case 0x0A:
        record.append(String(decoding: field, as: UTF8.self))
        records.append(record)
        record = []
        field = []
        fieldStart = true
        continue
      case 0x0D: throw Malformed(reason: "bare CR outside quotes")
      default: field.append(byte)
      }
      fieldStart = false
    }
    guard !quoted, field.isEmpty, record.isEmpty else { throw Malformed(reason: "unterminated") }
    return records
  }
}
