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
}
