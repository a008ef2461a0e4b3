/// Delivers a session elsewhere once it has ended (SleeveRecorder's `RecorderOptions.export`).
/// SleeveExport's `OTLPSessionExport` pushes it to an OTLP/HTTP endpoint; the recorder knows
/// only this protocol, so an app that records without pushing links no HTTP client.
///
/// It lives in SleeveStore, below both: the recorder calls it and SleeveExport adopts it,
/// and neither imports the other. `import SleeveRecorder` makes it visible too.
public protocol SessionExport: Sendable {
  /// How long the recording session's `end()` waits for the export before it returns. The export
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
