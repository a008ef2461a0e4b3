import SleeveStore

/// Reads a recorded file through a second connection, as another process would.
public struct Inspector {
  /// The read-only connection.
  public let connection: Connection

  /// Opens `path` read-only.
  public init(path: String) throws {
    connection = try Connection(path: path, mode: .readOnly)
  }

  /// The number of rows of `table` that meet `condition`.
  public func count(_ table: String, where condition: String = "1") throws -> Int {
    Int(try connection.scalarInt("SELECT count(*) FROM \(table) WHERE \(condition)") ?? -1)
  }

  /// The first column of the first row of `sql`, as an integer.
  public func int(_ sql: String) throws -> Int64? { try connection.scalarInt(sql) }

  /// The first column of the first row of `sql`, as text.
  public func text(_ sql: String) throws -> String? { try connection.scalarText(sql) }

  /// Every row of `sql`, each column rendered as text (`NULL` for null), joined by `|`.
  public func rows(_ sql: String) throws -> [String] {
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
