#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Which file a path named when the writer opened it (device and inode), so the writer can
/// tell when the file was deleted or replaced under it and stop writing into an orphan.
package struct FileIdentity: Equatable, Sendable {
  let device: UInt64
  let inode: UInt64

  /// The identity of the file at `path` now, or `nil` when there is none.
  package init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    device = UInt64(status.st_dev)
    inode = UInt64(status.st_ino)
  }

  /// Whether `first` and `second` name one existing file (through links or different spellings).
  package static func same(_ first: String, _ second: String) -> Bool {
    guard let one = FileIdentity(path: first) else { return false }
    return one == FileIdentity(path: second)
  }

  /// Creates `path` with `mode` when it does not exist yet (SQLite then creates its WAL and
  /// shared-memory files with the same permissions). Does nothing when it exists.
  static func createIfMissing(_ path: String, mode: mode_t) {
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode)
    if descriptor >= 0 { close(descriptor) }
  }
}
