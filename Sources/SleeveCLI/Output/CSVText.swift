/// The one CSV writer: RFC 4180 fields, used by `sleeve export --format csv` and by every
/// command's `--format csv`.
///
/// A field is quoted when it holds a comma, a quote, a CR or an LF, or starts or ends with a
/// space; inside quotes each `"` is doubled. This works on UTF-8 bytes, never on
/// `Character`s: CR LF is one `Character`, and a quote followed by a combining mark is one
/// `Character` that is not equal to `"`; both still end a row or a field for a CSV reader.
/// Records end with LF.
///
/// Spreadsheet formulas (OWASP "CSV injection"): with `.neutralized`, a field that starts with
/// `=`, `+`, `-`, `@`, TAB, CR or `'` and is not a number gets a `'` in front, so a spreadsheet
/// shows it as text and never runs it; a number such as `-5` or `-1.5e-7` is written as it is.
/// The rule is reversible: every field that starts with `'` was neutralized, so dropping one
/// leading `'` restores the value. With `.kept` the field is
/// written exactly (the export's data format, for DuckDB, pandas and the like).
enum CSVText {
  /// What happens to a field a spreadsheet would read as a formula.
  enum Formulas: Sendable {
    /// Written exactly.
    case kept
    /// Prefixed with `'` unless it is a number.
    case neutralized
  }

  /// `fields` as one record, LF included.
  static func record(_ fields: [String], formulas: Formulas) -> String {
    var out = ""
    for (index, field) in fields.enumerated() {
      if index > 0 { out += "," }
      appendField(field, formulas: formulas, to: &out)
    }
    out += "\n"
    return out
  }

  /// Appends `value` as one field to `out` (in place: no intermediate string when the field
  /// needs neither quotes nor a prefix).
  static func appendField(_ value: String, formulas: Formulas, to out: inout String) {
    let prefix = formulas == .neutralized && readsAsFormula(value)
    let needsQuotes =
      value.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
      || value.utf8.first == 0x20 || value.utf8.last == 0x20
    guard needsQuotes else {
      if prefix { out += "'" }
      out += value
      return
    }
    var bytes: [UInt8] = [0x22]
    bytes.reserveCapacity(value.utf8.count + 4)
    if prefix { bytes.append(0x27) }
    for byte in value.utf8 {
      bytes.append(byte)
      if byte == 0x22 { bytes.append(0x22) }
    }
    bytes.append(0x22)
    out += String(decoding: bytes, as: UTF8.self)
  }

  /// Whether a spreadsheet could take `value` for a formula (or it starts with the `'` the
  /// neutralizing prefix is made of), and it is not a number.
  static func readsAsFormula(_ value: String) -> Bool {
    guard let first = value.utf8.first else { return false }
    switch first {
    case UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D,
      UInt8(ascii: "'"):
      return !DecimalText.isNumber(value)
    default:
      return false
    }
  }
}
