/// Where a recording session stands, as its process sees it.
public enum SessionStatus: Equatable, Sendable {
  /// Recording, with every write so far successful.
  case recording
  /// Recording, but some writes failed: `failedEvents` events were not written; the last
  /// error is given. Later writes are still attempted.
  case failedWrites(failedEvents: Int, lastError: String)
  /// `end()` was recorded.
  case ended
}
