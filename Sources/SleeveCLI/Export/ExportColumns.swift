import SleeveQuery

/// One value of an exported row: text, integer or boolean, any of them possibly absent.
enum ExportCell: Equatable {
  case text(String?)
  case integer(Int64?)
  case boolean(Bool)
}

/// The columns of `sleeve export --format ndjson|csv`: one row per handler outcome, joined
/// with its fire, handler and session. The names and their order are stable (README lists
/// them); new columns are only ever added at the end.
enum ExportColumns {
  static let names = [
    "session_uuid", "session_name", "fire_number", "parent_fire_number", "control",
    "control_kind", "events", "origin", "depth", "fired_unix_ns", "outcome_number", "handler",
    "handler_identifier", "handler_kind", "handler_site", "flag_key", "variant", "flag_state",
    "is_async", "status", "skip_reason", "started_unix_ns", "started_at", "duration_ns",
    "error_type", "error_message",
  ]

  /// The row for `outcome` of `fire` (absent when the fire's row is missing).
  static func cells(session: SessionSummary, fire: ExportFire?, outcome: ExportOutcome)
    -> [ExportCell]
  {
    [
      .text(session.uuid), .text(session.name), .integer(outcome.fireNumber),
      .integer(fire?.parentNumber), .text(fire?.control), .text(fire?.controlKind),
      .text(fire?.events), .text(fire?.origin), .integer(fire?.depth),
      .integer(fire?.atUnixNanoseconds), .integer(outcome.number), .text(outcome.handler),
      .text(outcome.identifier), .text(outcome.handlerKind), .text(outcome.site),
      .text(outcome.flagKey), .text(outcome.variant), .text(outcome.flagState),
      .boolean(outcome.isAsync), .text(outcome.status), .text(outcome.skipReason),
      .integer(outcome.startedUnixNanoseconds),
      .text(UTCTimestamp.iso8601(unixNanoseconds: outcome.startedUnixNanoseconds)),
      .integer(outcome.durationNanoseconds), .text(outcome.errorType),
      .text(outcome.errorMessage),
    ]
  }
}
