/// Delivers a session elsewhere once it has ended (``RecorderOptions/export``).
/// SleeveExport's `OTLPSessionExport` pushes it to an OTLP/HTTP endpoint; the recorder knows
/// only this protocol, so an app that records without pushing links no HTTP client.
public protocol SessionExport: Sendable {
  /// How long ``RecordingSession/end()`` waits for the export before it returns. The export
  /// goes on in the background after that; whatever it did not finish before the process
  /// exits, a later `sleeve export --endpoint` resumes (deliveries are recorded request by
  /// request).
  var endWait: Duration { get }

  /// Delivers the ended session `sessionUUID` of the database at `databasePath`. Called once
  /// per session, after its end is committed, off the firing thread (a detached task).
  ///
  /// - Throws: why it was not delivered (one line as its description).
  func export(sessionUUID: String, databasePath: String) async throws
}

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
