/// Where a session's export at its end stands (``RecordingSession/exportStatus``).
public enum SessionExportStatus: Equatable, Sendable {
  /// No export is configured, or the session has not ended yet.
  case none
  /// The export is running.
  case inProgress
  /// It finished: the session is delivered.
  case delivered
  /// It failed; the message says why (also given to `RecorderOptions.onWriteError` as
  /// ``RecorderError/exportFailed(session:message:)``).
  case failed(String)
}
