import SleeveStore

/// The writer's prepared statements, compiled once per connection and reused for every row.
final class Statements {
  let insertSession: Statement
  let updateSessionProgress: Statement
  let endSession: Statement
  let insertControl: Statement
  let insertRegistration: Statement
  let updateRegistrationEvents: Statement
  let markRegistrationRemoved: Statement
  let insertFire: Statement
  let insertOutcome: Statement
  let upsertFlag: Statement
  let insertOutcomeRollout: Statement
  /// The one writer of `flag_events` rows (and their rollout shares).
  let flagEvents: FlagEventWriter
  let insertContext: Statement
  let recordTestResult: Statement
  let insertLifetime: Statement
  let markLifetimeEnded: Statement
  let insertInteraction: Statement

  init(_ connection: Connection) throws {
    insertSession = try connection.prepare(
      """
      INSERT INTO sessions (uuid, name, tags_json, started_unix_ns, heartbeat_unix_ns, status,
        durability, host, pid, os, runtime, sleeve_version, sqlite_version, metadata_json)
      VALUES (?, ?, ?, ?, ?, \(RecordCodes.SessionStatus.running.sqlLiteral), ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    updateSessionProgress = try connection.prepare(
      """
      UPDATE sessions SET heartbeat_unix_ns = ?, dropped_events = ?, failed_events = ?,
        write_errors = ?, last_error = ? WHERE id = ?
      """)
    endSession = try connection.prepare(
      """
      UPDATE sessions SET status = \(RecordCodes.SessionStatus.ended.sqlLiteral), ended_unix_ns = ?
      WHERE id = ?
      """)
    insertControl = try connection.prepare(
      "INSERT OR IGNORE INTO controls (id, session_id, name, kind) VALUES (?, ?, ?, ?)")
    insertRegistration = try connection.prepare(
      """
      INSERT OR IGNORE INTO registrations (id, session_id, control_id, events, kind, handler,
        identifier, flag_key, is_async, anchor_type, site, registered_at_ns)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    updateRegistrationEvents = try connection.prepare(
      "UPDATE registrations SET events = ? WHERE id = ?")
    markRegistrationRemoved = try connection.prepare(
      "UPDATE registrations SET removed_at_ns = ?, removal_reason = ? WHERE id = ?")
    insertFire = try connection.prepare(
      """
      INSERT INTO fires (id, control_id, events, origin, parent_fire_id, depth, at_ns)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      """)
    insertOutcome = try connection.prepare(
      """
      INSERT INTO outcomes (id, fire_id, registration_id, status, reason, variant, flag_state,
        is_async, started_ns, duration_ns, error_type, error_message)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    insertOutcomeRollout = try connection.prepare(
      "INSERT INTO outcome_rollouts (outcome_id, basis_points, assignment) VALUES (?, ?, ?)")
    upsertFlag = try connection.prepare(
      """
      INSERT INTO flags (session_id, key, owner, max_error_rate, max_p99_ns, min_samples)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (session_id, key) DO UPDATE SET owner = excluded.owner,
        max_error_rate = excluded.max_error_rate, max_p99_ns = excluded.max_p99_ns,
        min_samples = excluded.min_samples
      """)
    flagEvents = try FlagEventWriter(connection: connection)
    insertContext = try connection.prepare(
      """
      INSERT INTO session_context (session_id, ci_system, commit_sha, branch, pull_request,
        pipeline, attempt, job, runner, repository, build_url, test_id, test_name, test_suite,
        test_tags_json)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    insertLifetime = try connection.prepare(
      """
      INSERT OR IGNORE INTO registration_lifetimes (registration_id, added_seq,
        replaced_registration_id)
      VALUES (?, ?, ?)
      """)
    markLifetimeEnded = try connection.prepare(
      "UPDATE registration_lifetimes SET removed_seq = ? WHERE registration_id = ?")
    insertInteraction = try connection.prepare(
      """
      INSERT INTO interactions (id, control_id, gesture, was_enabled, depth, first_fire_id,
        last_fire_id, fire_count, at_ns, ended_ns)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """)
    // A session with no context row gets one holding only its result.
    recordTestResult = try connection.prepare(
      """
      INSERT INTO session_context (session_id, test_result) VALUES (?, ?)
      ON CONFLICT (session_id) DO UPDATE SET test_result = excluded.test_result
      """)
  }
}
