import Foundation
import SleeveStore

#if canImport(Glibc)
  import Glibc
#endif

/// A Sleeve file of the history's own, for the length of one command: a pruned copy of the
/// sessions being published, or the sessions a reader copied out of a history. It lives in a
/// directory only this user can enter (`mkdtemp`, 0700), the file itself 0600, and both are
/// removed by ``remove()`` (and by `deinit`, on every path out).
public final class ScratchDatabase: Sendable {
  /// The directory.
  public let directory: String
  /// The database file's path in it (not created yet).
  public let path: String

  /// Makes the directory under `$TMPDIR` (else `/tmp`).
  ///
  /// - Throws: `HistoryError` (74) when the directory cannot be made.
  public init(purpose: String) throws(HistoryError) {
    let base =
      ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
      ?? "/tmp"
    var template = Array("\(base)/sleeve-\(purpose).XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
      throw HistoryError(
        .failed,
        "cannot make a private directory under \(base): \(String(cString: strerror(errno)))")
    }
    let directory = String(cString: made)
    let path = directory + "/history.sqlite"
    (self.directory, self.path) = (directory, path)
    cleanup = InterruptCleanup(files: Self.suffixes.map { path + $0 }, directory: directory)
  }

  /// Removes it all when the process is interrupted (SIGINT, SIGTERM, SIGHUP): a copy of a
  /// history or of a local file's sessions never outlives the command.
  private let cleanup: InterruptCleanup
  private static let suffixes = ["", "-wal", "-shm", "-journal"]

  /// Creates an empty file at `path`, 0600, failing if anything is there: what `VACUUM INTO`
  /// then fills (it takes an empty file, and creates a missing one with the umask's mode).
  ///
  /// - Throws: `HistoryError` (74) when it cannot.
  static func createPrivateFile(at path: String) throws(HistoryError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw HistoryError(
        .failed, "cannot create \(path): \(String(cString: strerror(errno)))")
    }
    close(descriptor)
  }

  /// Removes the file (with its `-wal` and `-shm`) and the directory.
  public func remove() {
    for suffix in Self.suffixes { unlink(path + suffix) }
    rmdir(directory)
    cleanup.release()
  }

  deinit { remove() }
}
