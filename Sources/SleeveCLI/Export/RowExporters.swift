import SleeveStore

/// Writes rows as they come; `begin` once before the first.
protocol RowExporter {
  func begin(into sink: ExportSink) throws
  func write(_ cells: [ExportCell], into sink: ExportSink) throws
}

/// RFC 4180 CSV with a header row: fields quoted only when they must be, absent values empty.
struct CSVRowExporter: RowExporter {
  func begin(into sink: ExportSink) throws {
    try sink.write(ExportColumns.names.joined(separator: ",") + "\n")
  }

  func write(_ cells: [ExportCell], into sink: ExportSink) throws {
    try sink.append { line in
      for (index, cell) in cells.enumerated() {
        if index > 0 { line += "," }
        switch cell {
        case .text(let value?): line += Self.field(value)
        case .integer(let value?): line += String(value)
        case .boolean(let value): line += value ? "true" : "false"
        case .text(nil), .integer(nil): break
        }
      }
      line += "\n"
    }
  }

  /// `value`, or `"value"` with inner quotes doubled when it holds a comma, quote, line break
  /// or leading or trailing space.
  static func field(_ value: String) -> String {
    let needsQuotes =
      value.utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
      || value.first == " " || value.last == " "
    guard needsQuotes else { return value }
    // Byte by byte: a quote followed by a combining mark is one Character, but still a quote.
    var bytes: [UInt8] = [0x22]
    for byte in value.utf8 {
      bytes.append(byte)
      if byte == 0x22 { bytes.append(0x22) }
    }
    bytes.append(0x22)
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Newline-delimited JSON: one object per row with every column, absent values `null`.
struct NDJSONRowExporter: RowExporter {
  private static let keys = ExportColumns.names.map { JSONText.quoted($0) + ":" }

  func begin(into sink: ExportSink) throws {}

  func write(_ cells: [ExportCell], into sink: ExportSink) throws {
    try sink.append { line in
      line += "{"
      for (index, cell) in cells.enumerated() {
        if index > 0 { line += "," }
        line += Self.keys[index]
        switch cell {
        case .text(let value?): JSONText.appendQuoted(value, to: &line)
        case .integer(let value?): line += String(value)
        case .boolean(let value): line += value ? "true" : "false"
        case .text(nil), .integer(nil): line += "null"
        }
      }
      line += "}\n"
    }
  }
}
