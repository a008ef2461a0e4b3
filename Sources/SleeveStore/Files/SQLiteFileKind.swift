#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Recognises the files SQLite keeps for a database by their first bytes, so that no command
/// writes a report or an export over one, whatever it is named.
public enum SQLiteFileKind {
  /// "SQLite database", "SQLite write-ahead log" or "SQLite shared-memory index" when the
  /// regular file at `path` starts like one; `nil` otherwise (or when it cannot be read).
  public static func of(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    var bytes = [UInt8](repeating: 0, count: 16)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, 16) }
    guard count >= 4 else { return nil }
    if count == 16, bytes == DatabaseFile.header { return "SQLite database" }
    let first = bytes.prefix(4)
    // WAL header magic (big-endian 0x377f0682 or 0x377f0683).
    if first.elementsEqual([0x37, 0x7F, 0x06, 0x82])
      || first.elementsEqual([0x37, 0x7F, 0x06, 0x83])
    {
      return "SQLite write-ahead log"
    }
    // wal-index header version 3007000, in the machine's byte order.
    if first.elementsEqual([0x18, 0xE2, 0x2D, 0x00])
      || first.elementsEqual([0x00, 0x2D, 0xE2, 0x18])
    {
      return "SQLite shared-memory index"
    }
    return nil
  }
}
