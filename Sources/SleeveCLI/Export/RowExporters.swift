import SleeveStore

/// Writes rows as they come; `begin` once before the first.
protocol RowExporter {
  func begin(into sink: ExportSink) throws
  func write(_ cells: [ExportCell], into sink: ExportSink) throws
}

/// RFC 4180 CSV with a header row, written by `CSVText` with every value exact (this is the
/// data format: no formula prefix; see README), absent values empty.
struct CSVRowExporter: RowExporter {
  func begin(into sink: ExportSink) throws {
    try sink.write(CSVText.record(ExportColumns.names, formulas: .kept))
  }

  func write(_ cells: [ExportCell], into sink: ExportSink) throws {
    try sink.append { line in
      for (index, cell) in cells.enumerated() {
        if index > 0 { line += "," }
        switch cell {
        case .text(let value?): CSVText.appendField(value, formulas: .kept, to: &line)
        case .integer(let value?): line += String(value)
        case .boolean(let value): line += value ? "true" : "false"
        case .text(nil), .integer(nil): break
        }
      }
      line += "\n"
    }
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
