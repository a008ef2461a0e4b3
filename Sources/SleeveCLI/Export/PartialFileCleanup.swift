import SleeveStore

/// Removes an export's unfinished file when the process is interrupted (SIGINT, SIGTERM,
/// SIGHUP), then lets the signal end the process as it would have: no `.partial` file is left
/// behind by Ctrl-C or a CI timeout (`InterruptCleanup`, which a history's scratch copy uses
/// too). Signals the process ignores stay ignored.
final class PartialFileCleanup {
  private let cleanup: InterruptCleanup

  /// Starts removing `path` on interruption.
  init(path: String) { cleanup = InterruptCleanup(files: [path]) }

  /// Stops it: the file was renamed into place or removed.
  func release() { cleanup.release() }
}
