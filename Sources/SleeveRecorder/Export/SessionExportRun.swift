import Synchronization

/// Runs a session's export at its end: in a detached task (never the firing thread), with
/// `end()` waiting for it at most ``SessionExport/endWait``; its outcome goes to the
/// session's ``SessionExportStatus`` and, on failure, to the error callback.
final class SessionExportRun: Sendable {
  private let state = Mutex(SessionExportStatus.none)

  /// The export's state now.
  var status: SessionExportStatus { state.withLock { $0 } }

  /// Starts `export` of session `uuid` in `path` and waits until it finished or its
  /// `endWait` passed, whichever is first; the export goes on after that.
  func run(
    _ export: any SessionExport, sessionUUID uuid: String, databasePath path: String,
    onError: (@Sendable (RecorderError) -> Void)?
  ) async {
    state.withLock { $0 = .inProgress }
    let wait = export.endWait
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let waiter = FirstResume(continuation)
      let timer = Task.detached {
        try? await Task.sleep(for: wait)
        waiter.resume()
      }
      Task.detached { [self] in
        do {
          try await export.export(sessionUUID: uuid, databasePath: path)
          state.withLock { $0 = .delivered }
        } catch {
          let message = "\(error)"
          state.withLock { $0 = .failed(message) }
          onError?(.exportFailed(session: uuid, message: message))
        }
        timer.cancel()
        waiter.resume()
      }
    }
  }
}

/// Resumes a continuation once, whichever of its callers comes first.
private final class FirstResume: Sendable {
  private let continuation: Mutex<CheckedContinuation<Void, Never>?>

  init(_ continuation: CheckedContinuation<Void, Never>) {
    self.continuation = Mutex(continuation)
  }

  func resume() {
    continuation.withLock { pending in
      pending?.resume()
      pending = nil
    }
  }
}
