#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Removes an export's unfinished file when the process is interrupted (SIGINT, SIGTERM,
/// SIGHUP), then lets the signal end the process as it would have: no `.partial` file is left
/// behind by Ctrl-C or a CI timeout. Signals the process ignores stay ignored.
final class PartialFileCleanup {
  private var installed: [Int32] = []

  /// Starts removing `path` on interruption (one file at a time per process).
  init(path: String) {
    partialFilePath = strdup(path)  // set before any handler can run
    for number in [SIGINT, SIGTERM, SIGHUP] {
      let previous = signal(number, removePartialFileAndResignal)
      if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
      {
        signal(number, SIG_IGN)
      } else {
        installed.append(number)
      }
    }
  }

  /// Stops it: the file was renamed into place or removed.
  func release() {
    guard partialFilePath != nil else { return }
    for number in installed { signal(number, SIG_DFL) }
    installed = []
    let path = partialFilePath
    partialFilePath = nil  // cleared only once no handler can run any more
    free(path)
  }

  deinit { release() }
}

/// The unfinished file's path for the signal handler. `nonisolated(unsafe)` is safe here:
/// `PartialFileCleanup.init` writes it before installing the handlers and `release` clears it
/// only after restoring the default handlers, both on the exporting thread, and one export runs
/// per process; the handler only reads it.
nonisolated(unsafe) private var partialFilePath: UnsafeMutablePointer<CChar>? = nil

/// Async-signal-safe: `unlink`, `signal` and `raise` only.
private func removePartialFileAndResignal(_ number: Int32) {
  if let path = partialFilePath { unlink(path) }
  signal(number, SIG_DFL)
  raise(number)
}
