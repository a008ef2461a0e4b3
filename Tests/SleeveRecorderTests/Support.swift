import SleeveStore

/// Reads a recorded file through a second connection, as another process would.
struct Inspector {
  let connection: Connection

  init(path: String) throws {
    connection = try Connection(path: path, mode: .readOnly)
  }

  func count(_ table: String, where condition: String = "1") throws -> Int {
    Int(try connection.scalarInt("SELECT count(*) FROM \(table) WHERE \(condition)") ?? -1)
  }

  func int(_ sql: String) throws -> Int64? { try connection.scalarInt(sql) }

  func text(_ sql: String) throws -> String? { try connection.scalarText(sql) }

  /// Every row of `sql`, each column rendered as text (`NULL` for null), joined by `|`.
  func rows(_ sql: String) throws -> [String] {
    let statement = try connection.prepare(sql)
    var rows: [String] = []
    while try statement.step() {
      rows.append(
        (0..<statement.columnCount).map { column -> String in
          switch statement.value(at: column) {
          case .null: "NULL"
          case .integer(let value): String(value)
          case .real(let value): String(value)
          case .text(let value): value
          }
        }.joined(separator: "|"))
    }
    return rows
  }
}
