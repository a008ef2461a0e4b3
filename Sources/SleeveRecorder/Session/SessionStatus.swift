/// Where a recording session stands, as its process sees it.
public enum SessionStatus: Equatable, Sendable {
  /// Recording, with every write so far successful.
  case recording
  /// Recording, but some writes failed: `failedEvents` events were not written; the last
  /// error is given. Later writes are still attempted.
  case failedWrites(failedEvents: Int, lastError: String)
  /// `end()` was recorded, and every event of the session was written.
  case ended
  /// `end()` was recorded, but not every event was: `droppedEvents` were dropped from a full
  /// buffer and `failedEvents` failed to write (the last error is given, when there was one).
  case endedWithLosses(droppedEvents: Int, failedEvents: Int, lastError: String?)
}
