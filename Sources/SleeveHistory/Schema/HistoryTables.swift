/// The one home of what a history holds of a session, table by table: the columns copied
/// between a Sleeve file (SQLite) and a history (PostgreSQL), with the same names on both
/// sides (`Migrations/postgresql/0001_history.sql` mirrors `Migrations/*.sql`), and how each
/// column's value is carried across. Publishing reads these columns from a pruned copy of the
/// file; reading writes them into a temporary file. `HistorySchemaTests` holds both schemas to this list.
enum HistoryTables {
  /// How a value is stored.
  enum ValueType: Equatable, Sendable {
    case integer, real, text, blob
  }

  /// What a column's value means for the copy.
  enum Role: Equatable, Sendable {
    /// Copied as it is.
    case value
    /// A session id: the history's own number for the session (or the reading file's).
    case session
    /// A row id of the form (session id << 32) | n: its session part becomes the new
    /// session's, n is kept.
    case rowID
  }

  /// One column.
  struct Column: Equatable, Sendable {
    let name: String
    let type: ValueType
    let role: Role
    let isNullable: Bool

    init(_ name: String, _ type: ValueType, _ role: Role = .value, nullable: Bool = false) {
      (self.name, self.type, self.role, self.isNullable) = (name, type, role, nullable)
    }
  }

  /// How a table's rows are found by session.
  enum Key: Equatable, Sendable {
    /// Rows whose `column` is the session id.
    case session(String)
    /// Rows whose `column` is a row id of the session ((session << 32) | n).
    case rowRange(String)

    var column: String {
      switch self {
      case .session(let column), .rowRange(let column): column
      }
    }
  }

  /// One table.
  struct Table: Equatable, Sendable {
    let name: String
    let key: Key
    let columns: [Column]

    var columnList: String { columns.map(\.name).joined(separator: ", ") }
  }

  /// SQL for a `FROM` clause: the rows of `table` (a ``Key/rowRange`` table, aliased `t`)
  /// whose row ids belong to the sessions of the `bigint[]` parameter `$parameter`, each
  /// session read by one range scan of the key's index. `OFFSET 0` keeps the planner from
  /// flattening the per-session scan into one join filtered row by row (a scan of the whole
  /// table: 310 ms against 1.3 ms for 20 sessions of a 2,500-session history).
  static func rowsOfSessions(_ table: Table, parameter: Int) -> String {
    let key = table.key.column
    return """
      unnest($\(parameter)::bigint[]) AS s(id) CROSS JOIN LATERAL (
        SELECT * FROM \(table.name) r
        WHERE r.\(key) BETWEEN s.id << 32 AND (s.id << 32) | 4294967295 OFFSET 0) t
      """
  }

  /// The `sessions` columns both sides share; `id` is the history's own number.
  static let sessions = Table(
    name: "sessions", key: .session("id"),
    columns: [
      Column("id", .integer, .session), Column("uuid", .text), Column("name", .text),
      Column("tags_json", .text), Column("started_unix_ns", .integer),
      Column("ended_unix_ns", .integer, nullable: true), Column("heartbeat_unix_ns", .integer),
      Column("status", .text), Column("durability", .text), Column("dropped_events", .integer),
      Column("failed_events", .integer), Column("write_errors", .integer),
      Column("last_error", .text, nullable: true), Column("host", .text), Column("pid", .integer),
      Column("os", .text), Column("runtime", .text), Column("sleeve_version", .text),
      Column("sqlite_version", .text), Column("metadata_json", .text),
    ])

  /// What selecting sessions reads besides their rows: where they ran and whether (and when)
  /// they were summarized and pruned. Small: a reader copies these for every session of a
  /// history, and selection (`--branch`, `--last`, `--since`, a baseline) runs on them.
  static let heads: [Table] = [
    Table(
      name: "session_context", key: .session("session_id"),
      columns: [Column("session_id", .integer, .session)]
        + [
          "ci_system", "commit_sha", "branch", "pull_request", "pipeline", "attempt", "job",
          "runner", "repository", "build_url", "test_id", "test_name", "test_suite",
        ].map { Column($0, .text, nullable: true) }
        + [Column("test_tags_json", .text), Column("test_result", .text, nullable: true)]),
    Table(
      name: "session_summaries", key: .session("session_id"),
      columns: [
        Column("session_id", .integer, .session), Column("summarized_unix_ns", .integer),
        Column("fires", .integer), Column("outcomes", .integer),
        Column("raw_pruned_unix_ns", .integer, nullable: true),
      ]),
    Table(
      name: "summary_checksums", key: .session("session_id"),
      columns: [
        Column("session_id", .integer, .session), Column("rows_digest", .integer),
        Column("checksum", .integer),
      ]),
  ]

  /// The rest of a session: its controls, handlers and their lifetimes, flags and rollout
  /// plans, and its summaries. Parents before children (the file's foreign keys).
  static let bodies: [Table] = [
    Table(
      name: "controls", key: .rowRange("id"),
      columns: [
        Column("id", .integer, .rowID), Column("session_id", .integer, .session),
        Column("name", .text), Column("kind", .text),
      ]),
    Table(
      name: "registrations", key: .rowRange("id"),
      columns: [
        Column("id", .integer, .rowID), Column("session_id", .integer, .session),
        Column("control_id", .integer, .rowID), Column("events", .integer),
        Column("kind", .text), Column("handler", .text),
        Column("identifier", .text, nullable: true), Column("flag_key", .text, nullable: true),
        Column("is_async", .integer), Column("anchor_type", .text, nullable: true),
        Column("site", .text), Column("registered_at_ns", .integer),
        Column("removed_at_ns", .integer, nullable: true),
        Column("removal_reason", .text, nullable: true),
      ]),
    Table(
      name: "registration_lifetimes", key: .rowRange("registration_id"),
      columns: [
        Column("registration_id", .integer, .rowID), Column("added_seq", .integer),
        Column("removed_seq", .integer, nullable: true),
        Column("replaced_registration_id", .integer, .rowID, nullable: true),
      ]),
    Table(
      name: "outcome_summaries", key: .rowRange("registration_id"),
      columns: [
        Column("registration_id", .integer, .rowID), Column("variant", .integer),
        Column("ok", .integer), Column("failed", .integer), Column("owner_released", .integer),
        Column("skipped", .integer), Column("cancelled", .integer),
        Column("recursion_limit", .integer), Column("scale", .integer),
        Column("count", .integer), Column("min_ns", .integer, nullable: true),
        Column("max_ns", .integer, nullable: true), Column("histogram", .blob),
      ]),
    Table(
      name: "failure_summaries", key: .rowRange("registration_id"),
      columns: [
        Column("registration_id", .integer, .rowID), Column("variant", .integer),
        Column("error_type", .text), Column("pattern", .text), Column("count", .integer),
        Column("sample_message", .text, nullable: true),
      ]),
    Table(
      name: "flags", key: .session("session_id"),
      columns: [
        Column("session_id", .integer, .session), Column("key", .text), Column("owner", .text),
        Column("max_error_rate", .real, nullable: true),
        Column("max_p99_ns", .integer, nullable: true), Column("min_samples", .integer),
      ]),
    Table(
      name: "flag_rollout_plans", key: .session("session_id"),
      columns: [
        Column("session_id", .integer, .session), Column("key", .text),
        Column("unit", .text, nullable: true), Column("salt", .text),
      ]),
    Table(
      name: "flag_rollout_stages", key: .session("session_id"),
      columns: [
        Column("session_id", .integer, .session), Column("key", .text),
        Column("position", .integer), Column("basis_points", .integer),
        Column("min_samples", .integer),
      ]),
    Table(
      name: "flag_check_severities", key: .session("session_id"),
      columns: [
        Column("session_id", .integer, .session), Column("key", .text),
        Column("check_name", .text), Column("severity", .text),
      ]),
  ]

  /// A session's flag changes. The file numbers them across the file (`flag_events.id`) and
  /// keeps a change's rollout share apart (`flag_rollouts`); the history numbers them within
  /// the session (`position`, in the file's order) and keeps the share beside them.
  static let flagEventColumns: [Column] = [
    Column("key", .text), Column("state", .text), Column("reason", .text, nullable: true),
    Column("actor", .text, nullable: true), Column("at_unix_ns", .integer),
    Column("at_ns", .integer, nullable: true),
  ]

  /// `flag_events` as the history holds it: the session, the change's position in it, the
  /// change, and its rollout share.
  static let flagEvents = Table(
    name: "flag_events", key: .session("session_id"),
    columns: [Column("session_id", .integer, .session), Column("position", .integer)]
      + flagEventColumns + [Column("basis_points", .integer, nullable: true)])

  /// `id` rebased onto `session`: (session << 32) | (id & 0xFFFF_FFFF).
  static func rebased(_ id: Int64, onto session: Int64) -> Int64 {
    (session << 32) | (id & 0xFFFF_FFFF)
  }
}
