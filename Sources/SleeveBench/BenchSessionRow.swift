import SleeveStore

/// The `sessions` row of a benchmark fixture written by SQL: an ended session numbered
/// `session`, its UUID derived from the number, so fixtures are the same on every run.
enum BenchSessionRow {
  /// Inserts session `session` named `name`.
  static func insert(_ session: Int64, name: String, into connection: Connection) throws {
    let uuidTail = String(session, radix: 16)
    let uuid =
      "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - uuidTail.count) + uuidTail
    let row = try connection.prepare(
      """
      INSERT INTO sessions (id, uuid, name, started_unix_ns, ended_unix_ns, heartbeat_unix_ns,
        status, durability, host, pid, os, runtime, sleeve_version, sqlite_version)
      VALUES (?, ?, ?, ?, ?, ?, \(RecordCodes.SessionStatus.ended.sqlLiteral), 'batched', 'bench', 1,
        'bench', 'Swift', '0.1.0', '3')
      """)
    try row.bind(session, at: 1)
    try row.bind(uuid, at: 2)
    try row.bind(name, at: 3)
    try row.bind(session - 1, at: 4)
    try row.bind(session, at: 5)
    try row.bind(session, at: 6)
    try row.run()
  }
}
