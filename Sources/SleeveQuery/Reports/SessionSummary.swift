import SleeveStore

/// One recorded session as listed by `sleeve sessions`.
///
/// Its texts are capped as the recorder caps them (`RecordedText.Limit.name`, 1,024 UTF-8
/// bytes, for the name, UUID and metadata; `recorded` caps the environment and tags), whatever
/// the file holds: a name written past the cap by hand or a merge of such a file cannot make
/// an answer or an export that repeats it grow without bound.
public struct SessionSummary: Equatable, Sendable {
  /// The row id (the `--session` number).
  public let id: Int64
  /// The UUID.
  public let uuid: String
  /// The name.
  public let name: String
  /// When it started, Unix nanoseconds.
  public let startedUnixNanoseconds: Int64
  /// When it ended, or its last heartbeat when it did not end.
  public let lastSeenUnixNanoseconds: Int64
  /// Ended, running or unterminated.
  public let liveness: SessionLiveness
  /// Writes that failed (the session's events were partly lost; see `failedEvents`).
  public let writeErrors: Int
  /// Events lost to failed writes.
  public let failedEvents: Int
  /// Events dropped because the buffer was full.
  public let droppedEvents: Int
  /// Fires recorded.
  public let fires: Int
  /// Outcomes recorded.
  public let outcomes: Int
  /// Host, OS, runtime, versions and recorded environment, as stored.
  public let metadata: [String: String]
  /// Where it ran and which test it recorded (all unknown for a file from before 0003).
  public let context: SessionContext

  /// `ended`, `running` or `unterminated`, followed by `, failed writes` when any write failed.
  public var status: String {
    liveness.rawValue + (writeErrors > 0 ? ", failed writes" : "")
  }

  /// Seconds from start to end (or to the last heartbeat): the exact difference in `Int128`
  /// over 10⁹, rounded once (``ExactRounding``), so any pair of times a file holds gives a
  /// value (negative when the end is before the start) and 1,500 ns at 1.7·10¹⁸ ns is 1.5e-6 s,
  /// not the 1.536e-6 of a difference of two `Double`s.
  public var durationSeconds: Double {
    ExactRounding.quotient(
      Int128(lastSeenUnixNanoseconds) - Int128(startedUnixNanoseconds), 1_000_000_000)
  }

  /// The row ids of this session's rows in every id-partitioned table (`id >> 32` is the
  /// session); `nil` for a session id outside `RowID.sessions`, which owns no rows.
  var idRange: ClosedRange<Int64>? { RowID.range(of: id) }
}
