#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What is at a database path, found before SQLite opens it, so nothing that is not a regular
/// SQLite file (a FIFO, a device, a directory, a short or foreign file) is ever opened, written
/// or created over.
///
/// Symbolic links to existing files are followed (a linked database is common); a link to a
/// missing file is never created through. The inspection opens the file without blocking
/// (`O_NONBLOCK`) and checks the opened file again, so a FIFO swapped in between cannot hang it.
///
/// ```swift
/// switch try DatabaseFile.inspect("sleeve.sqlite") {
/// case .missing: …   // a writer may create it
/// case .empty: …     // zero bytes: a recorder is creating it, or a writer may use it
/// case .sqlite: …    // starts with the SQLite header
/// }
/// ```
public enum DatabaseFile {
  /// What a path holds.
  public enum State: Equatable, Sendable {
    /// Nothing is there.
    case missing
    /// A regular file of zero bytes.
    case empty
    /// A regular file that starts with the SQLite header.
    case sqlite
  }

  /// The 16 bytes every SQLite database file starts with.
  static let header: [UInt8] = Array("SQLite format 3\0".utf8)

  /// What `path` holds.
  ///
  /// - Throws: `StoreError.notARegularFile` for a FIFO, device, socket or directory;
  ///   `StoreError.danglingLink` for a symbolic link to a missing file;
  ///   `StoreError.notADatabase` for a regular file that is not empty and does not start with
  ///   the SQLite header; `StoreError.unreadable` when the file cannot be read (permissions).
  public static func inspect(_ path: String) throws(StoreError) -> State {
    guard !path.isEmpty else { throw .unreadable(path: path, reason: "the path is empty") }
    if let database = companionDatabase(of: path) {
      throw .companionFile(path: path, database: database)
    }
    var status = stat()
    guard stat(path, &status) == 0 else {
      let error = errno
      guard error == ENOENT else { throw .unreadable(path: path, reason: SystemError.text(error)) }
      var link = stat()
      if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
        throw .danglingLink(path: path)
      }
      return .missing
    }
    try requireRegular(status, path: path)
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
    guard descriptor >= 0 else { throw .unreadable(path: path, reason: SystemError.text(errno)) }
    defer { close(descriptor) }
    var opened = stat()
    guard fstat(descriptor, &opened) == 0 else {
      throw .unreadable(path: path, reason: SystemError.text(errno))
    }
    try requireRegular(opened, path: path)
    guard opened.st_size > 0 else { return .empty }
    var bytes = [UInt8](repeating: 0, count: header.count)
    let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, header.count) }
    guard count >= 0 else { throw .unreadable(path: path, reason: SystemError.text(errno)) }
    guard count == header.count, bytes == header else {
      throw .notADatabase(
        path: path,
        detail: opened.st_size < 100
          ? "only \(opened.st_size) byte\(opened.st_size == 1 ? "" : "s"), shorter than a "
            + "SQLite header"
          : "no SQLite header")
    }
    return .sqlite
  }

  /// Creates `path` as an empty file with `mode` (default 0600) when nothing is there, so
  /// SQLite then creates the database and its `-wal` and `-shm` files with that mode.
  ///
  /// Never creates through a symbolic link (`O_NOFOLLOW`), never truncates, and does nothing
  /// when the file appeared meanwhile (another process creating it).
  ///
  /// - Throws: `StoreError.unreadable` when the file cannot be created (missing directory,
  ///   permissions), `StoreError.danglingLink` for a link to a missing file.
  public static func createIfMissing(_ path: String, mode: UInt32 = 0o600) throws(StoreError) {
    let error = try create(path, mode: mode)
    guard error == 0 else {
      throw .unreadable(path: path, reason: "cannot create it: " + SystemError.text(error))
    }
  }

  /// Creates `path` as `createIfMissing` does: 0 when it was created or is there, else the
  /// `errno` of the failed creation.
  private static func create(_ path: String, mode: UInt32) throws(StoreError) -> Int32 {
    let descriptor = open(
      path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY, mode_t(mode))
    guard descriptor < 0 else {
      // The mode passed to open is reduced by the umask; the file must be exactly `mode`.
      fchmod(descriptor, mode_t(mode))
      close(descriptor)
      return 0
    }
    let error = errno
    if error == EEXIST {
      var link = stat()
      if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
        var target = stat()
        if stat(path, &target) != 0 { throw .danglingLink(path: path) }
      }
      return 0
    }
    return error
  }

  /// Inspects `path` for a command that writes to it, creating it (0600) when missing.
  ///
  /// A directory that refuses the file (permission denied, a read-only file system) is named
  /// so (`StoreError.unreadable`, exit 66), never as SQLite's `unable to open database file`;
  /// a missing directory is left to SQLite's open to report.
  ///
  /// - Throws: what `inspect` throws; `StoreError.unreadable` when the directory refuses.
  public static func prepareForWriting(_ path: String, mode: UInt32 = 0o600) throws(StoreError) {
    let state = try inspect(path)
    if state == .empty {
      // A database is made in this file now: it gets the mode of a file Sleeve creates.
      chmod(path, mode_t(mode))
      return
    }
    guard state == .missing else { return }
    let error = try create(path, mode: mode)
    if [EACCES, EPERM, EROFS].contains(error) {
      throw .unreadable(path: path, reason: "cannot create it: " + SystemError.text(error))
    }
    guard error == 0 else { return }
    _ = try inspect(path)
  }

  /// The database whose `-wal`, `-shm` or `-journal` file `path` names, when that database
  /// exists: SQLite owns such a file (it resets one that holds anything else), so Sleeve never
  /// opens, creates or writes a database there.
  public static func companionDatabase(of path: String) -> String? {
    for suffix in ["-wal", "-shm", "-journal"] where path.hasSuffix(suffix) {
      let database = String(path.dropLast(suffix.count))
      var status = stat()
      if !database.isEmpty, stat(database, &status) == 0, status.st_mode & S_IFMT == S_IFREG {
        return database
      }
    }
    return nil
  }

  private static func requireRegular(_ status: stat, path: String) throws(StoreError) {
    guard status.st_mode & S_IFMT != S_IFREG else { return }
    throw .notARegularFile(path: path, kind: kindName(of: status))
  }

  /// What a file that is not regular is, for a message: `a FIFO`, `a character device`, `a
  /// block device`, `a directory`, `a socket`, else `not a regular file`. The one home of
  /// these words, for the database and every file the CLI writes.
  public static func kindName(of status: stat) -> String {
    switch status.st_mode & S_IFMT {
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFDIR: "a directory"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}
