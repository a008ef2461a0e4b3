import Synchronization

/// Runs a session's export at its end: in a detached task (never the firing thread), with
/// `end()` waiting for it at most ``SessionExport/endWait``; its outcome goes to the
/// session's ``SessionExportStatus`` and, on failure, to the error callback.
final class SessionExportRun: Sendable {
  private let state = Mutex(SessionExportStatus.none)

  /// The export's state now.
  var status: SessionExportStatus { state.withLock { $0 } }

  /// Starts `export` of session `uuid` in `path` and waits until it finished or its
  /// `endWait` passed, whichever is first.
  func run(
    _ export: any SessionExport, sessionUUID uuid: String, databasePath path: String,
    onError: (@Sendable (RecorderError) -> Void)?
  ) async {
    state.withLock { $0 = .inProgress }
    let task = Task.detached { [self] in
      do {
        try await export.export(sessionUUID: uuid, databasePath: path)
        state.withLock { $0 = .delivered }
      } catch {
        let message = "\(error)"
        state.withLock { $0 = .failed(message) }
        onError?(.exportFailed(session: uuid, message: message))
      }
    }
    let wait = export.endWait
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await task.value }
      group.addTask { try? await Task.sleep(for: wait) }
      await group.next()
      // Ends the sleep; the export task is not a child and goes on.
      group.cancelAll()
    }
  }
}
