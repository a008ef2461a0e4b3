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
  ///
  /// A symbolic link is followed, as SQLite follows it: a link to a missing file (a dangling
  /// link) has its target created with `mode`, never with the process's default mode. The
  /// file is created exclusively (`O_EXCL`), so an existing file, whatever it is (a FIFO, a
  /// device), is never opened here.
  static func createIfMissing(_ path: String, mode: mode_t) {
    // Paths are kept as bytes: a link's target need not be valid UTF-8.
    var current = Array(path.utf8CString)
    // At most as many links as the system resolves in one path (Linux: 40), so a link loop
    // ends; SQLite then reports the path as unusable.
    for _ in 0..<40 {
      let descriptor = open(current, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, mode)
      if descriptor >= 0 {
        close(descriptor)
        return
      }
      guard errno == EEXIST, let target = danglingLinkTarget(current) else { return }
      current = target
    }
  }

  /// The target of `path` (a NUL-terminated path) when it is a symbolic link to a file that
  /// does not exist; a relative target is resolved against the link's directory.
  private static func danglingLinkTarget(_ path: [CChar]) -> [CChar]? {
    var status = stat()
    guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK,
      stat(path, &status) != 0, errno == ENOENT
    else { return nil }
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink(path, &buffer, buffer.count - 1)
    guard length > 0 else { return nil }
    let target = Array(buffer[0..<length])
    let name = path.dropLast()  // without its NUL
    guard target.first != CChar(UInt8(ascii: "/")),
      let slash = name.lastIndex(of: CChar(UInt8(ascii: "/")))
    else { return target + [0] }
    return Array(name[...slash]) + target + [0]
  }
}
