import SleeveStore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file a command was asked to write (`--out`): the one place that decides what may be
/// written where.
///
/// - A regular file (or a path where nothing is) is written under an unnamed temporary file in
///   the same directory (Linux `O_TMPFILE`, else a `.partial-PID` file removed on SIGINT,
///   SIGTERM and SIGHUP) and moved into place only when complete, mode 0600. A kill, even
///   SIGKILL, leaves nothing behind (with `O_TMPFILE`), and `.partial-PID` files of processes
///   that are gone are removed by the next write into that directory.
/// - A character device or a FIFO (`/dev/stdout`, `/dev/null`, a named pipe) is written
///   directly, never replaced; a FIFO that no process reads is refused at once (no hang).
/// - A symbolic link is followed: the file it points to is replaced and the link kept. A link
///   to a missing file, a directory, a block device or a socket is refused.
/// - A SQLite database or WAL file, the command's database (or its `-wal`, `-shm`) and any
///   of its inputs are never written over.
/// - Opened for appending (`init(appendingTo:protecting:)`, the GitHub job summary), only a
///   regular file is written, at its end, never truncated; a missing one is created 0600.
final class OutputFile {
  /// The path as given.
  let path: String
  /// The bytes the file held when it was opened for appending; 0 otherwise.
  let sizeWhenOpened: Int
  private let descriptor: Int32
  private let placement: Placement?
  private var finished = false

  /// Where a regular file's bytes go before they are moved into place.
  private struct Placement {
    /// The final path (the link's target when `path` is a symbolic link).
    let target: String
    /// The named temporary file, or `nil` for an unnamed (`O_TMPFILE`) one.
    let partial: String?
    let cleanup: PartialFileCleanup?
  }

  /// Opens `path` for writing.
  ///
  /// - Parameter protected: Files that must never be written over: the database a command
  ///   reads and its inputs (their `-wal` and `-shm` files are protected with them).
  /// - Throws: `OutputFileError`.
  init(path: String, protecting protected: [String]) throws(OutputFileError) {
    self.path = path
    sizeWhenOpened = 0
    guard !path.isEmpty else { throw .refused(path: path, reason: "the path is empty") }
    if let database = DatabaseFile.companionDatabase(of: path) {
      throw .refused(path: path, reason: "it belongs to the database '\(database)'")
    }
    var status = stat()
    guard stat(path, &status) == 0 else {
      let error = errno
      var link = stat()
      if error == ENOENT, lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
        throw .refused(path: path, reason: "it is a symbolic link to a file that does not exist")
      }
      guard error == ENOENT else { throw .cannotWrite(path: path, reason: SystemError.text(error)) }
      (descriptor, placement) = try Self.openTemporary(for: path)
      return
    }
    switch status.st_mode & S_IFMT {
    case S_IFCHR, S_IFIFO:
      descriptor = try Self.openStream(path)
      placement = nil
    case S_IFREG:
      try Self.refuseOverwriting(path, protected: protected)
      (descriptor, placement) = try Self.openTemporary(for: Self.resolved(path))
    case S_IFDIR:
      throw .refused(path: path, reason: "it is a directory")
    default:
      throw .refused(path: path, reason: "it is not a regular file, a character device or a FIFO")
    }
  }

  /// Opens `path` to append to it: a regular file (a link to one is followed), or a new file
  /// created 0600 when nothing is there. Existing bytes are never truncated or rewritten.
  ///
  /// A FIFO, device, socket or directory is refused before it is opened, and the opened file is
  /// checked again (opened without blocking), so one swapped in meanwhile cannot hang the
  /// command. A link to a missing file, a database's `-wal`, `-shm` or `-journal`, a SQLite file
  /// and the `protected` files are refused, as for `init(path:protecting:)`.
  ///
  /// - Throws: `OutputFileError.refused` for a path that must not be appended to,
  ///   `.cannotWrite` when it cannot be opened or created.
  init(appendingTo path: String, protecting protected: [String]) throws(OutputFileError) {
    self.path = path
    placement = nil
    guard !path.isEmpty else { throw .refused(path: path, reason: "the path is empty") }
    if let database = DatabaseFile.companionDatabase(of: path) {
      throw .refused(path: path, reason: "it belongs to the database '\(database)'")
    }
    let opened = try Self.openForAppending(path, protected: protected, mayCreate: true)
    var status = stat()
    guard fstat(opened, &status) == 0 else {
      let reason = SystemError.text(errno)
      close(opened)
      throw .cannotWrite(path: path, reason: reason)
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      close(opened)
      throw .refused(path: path, reason: Self.notRegularReason(status))
    }
    descriptor = opened
    sizeWhenOpened = Int(clamping: status.st_size)
  }

  deinit {
    guard !finished else { return }
    close(descriptor)
    if let partial = placement?.partial { unlink(partial) }
    placement?.cleanup?.release()
  }

  /// Writes all of `bytes`, retrying when interrupted.
  func write(_ bytes: UnsafeRawBufferPointer) throws(OutputFileError) {
    var offset = 0
    while offset < bytes.count {
      let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0 {
        if errno == EINTR { continue }
        throw .cannotWrite(path: path, reason: SystemError.text(errno))
      }
      offset += written
    }
  }

  /// Writes `text` as UTF-8.
  func write(_ text: String) throws(OutputFileError) {
    var text = text
    var failure: OutputFileError?
    text.withUTF8 { bytes in
      do throws(OutputFileError) {
        try write(UnsafeRawBufferPointer(bytes))
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// Completes the file: a regular file is synced and moved into place (0600); a device or
  /// FIFO is closed.
  func finish() throws(OutputFileError) {
    finished = true
    guard let placement else {
      guard close(descriptor) == 0 || errno == EINTR else {
        throw .cannotWrite(path: path, reason: SystemError.text(errno))
      }
      return
    }
    defer { placement.cleanup?.release() }
    guard fsync(descriptor) == 0 else {
      let reason = SystemError.text(errno)
      abandon(placement)
      throw .cannotWrite(path: path, reason: reason)
    }
    var partial = placement.partial
    if partial == nil {
      // Give the unnamed file a name next to its target, then move it into place.
      let name = Self.partialName(for: placement.target)
      guard linkat(AT_FDCWD, "/proc/self/fd/\(descriptor)", AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0
      else {
        let reason = SystemError.text(errno)
        abandon(placement)
        throw .cannotWrite(path: path, reason: reason)
      }
      partial = name
    }
    close(descriptor)
    guard let partial, rename(partial, placement.target) == 0 else {
      let reason = SystemError.text(errno)
      if let partial { unlink(partial) }
      throw .cannotWrite(path: path, reason: reason)
    }
  }

  private func abandon(_ placement: Placement) {
    close(descriptor)
    if let partial = placement.partial { unlink(partial) }
  }

  /// Refuses a regular file that is protected or holds a SQLite database or WAL.
  private static func refuseOverwriting(_ path: String, protected: [String])
    throws(OutputFileError)
  {
    let target = FileIdentity(path: path)
    for file in protected {
      for candidate in [file, file + "-wal", file + "-shm", file + "-journal"]
      where target != nil && FileIdentity(path: candidate) == target {
        throw .refused(
          path: path,
          reason: candidate == file
            ? "it is '\(file)', which this command reads"
            : "it is '\(candidate)', part of the database this command reads")
      }
    }
    if let kind = SQLiteFileKind.of(path) {
      throw .refused(path: path, reason: "it holds a \(kind); Sleeve never writes over one")
    }
  }

  /// A descriptor appending to the regular file at `path`, or to a new 0600 file created there
  /// (`O_EXCL`, never through a link); when another process creates it first, the existing
  /// file is opened instead (once).
  private static func openForAppending(_ path: String, protected: [String], mayCreate: Bool)
    throws(OutputFileError) -> Int32
  {
    var status = stat()
    if stat(path, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFREG else {
        throw .refused(path: path, reason: notRegularReason(status))
      }
      try refuseOverwriting(path, protected: protected)
      let opened = open(path, O_WRONLY | O_APPEND | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
      guard opened >= 0 else { throw .cannotWrite(path: path, reason: SystemError.text(errno)) }
      return opened
    }
    let error = errno
    guard error == ENOENT else { throw .cannotWrite(path: path, reason: SystemError.text(error)) }
    var link = stat()
    if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
      throw .refused(path: path, reason: "it is a symbolic link to a file that does not exist")
    }
    let created = open(
      path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0o600)
    guard created >= 0 else {
      let error = errno
      if error == EEXIST, mayCreate {
        return try openForAppending(path, protected: protected, mayCreate: false)
      }
      throw .cannotWrite(path: path, reason: SystemError.text(error))
    }
    fchmod(created, 0o600)
    return created
  }

  /// Why a file that is not regular is not appended to.
  private static func notRegularReason(_ status: stat) -> String {
    "it is \(DatabaseFile.kindName(of: status)), and only a regular file is appended to"
  }

  /// A character device or FIFO, opened for writing without blocking on a FIFO nobody reads.
  private static func openStream(_ path: String) throws(OutputFileError) -> Int32 {
    let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let error = errno
      if error == ENXIO { throw .noReader(path: path) }
      throw .cannotWrite(path: path, reason: SystemError.text(error))
    }
    let flags = fcntl(descriptor, F_GETFL)
    _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK)
    return descriptor
  }

  /// An unnamed temporary file in `target`'s directory, else a named `.partial-PID` one
  /// (after removing those of processes that are gone).
  private static func openTemporary(for target: String) throws(OutputFileError) -> (
    Int32, Placement
  ) {
    let directory = Self.directory(of: target)
    removeStalePartials(of: target, in: directory)
    let unnamed = open(directory, openTemporaryFlag | O_WRONLY | O_CLOEXEC, 0o600)
    if unnamed >= 0 {
      fchmod(unnamed, 0o600)
      return (unnamed, Placement(target: target, partial: nil, cleanup: nil))
    }
    let partial = partialName(for: target)
    // Watch before creating, so no signal can come between the file and its cleanup.
    let cleanup = PartialFileCleanup(path: partial)
    let named = open(partial, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard named >= 0 else {
      let reason = SystemError.text(errno)
      cleanup.release()
      throw .cannotWrite(path: target, reason: reason)
    }
    fchmod(named, 0o600)
    return (named, Placement(target: target, partial: partial, cleanup: cleanup))
  }

  /// `target.partial-PID`.
  private static func partialName(for target: String) -> String {
    target + ".partial-\(getpid())"
  }

  /// Removes `target.partial-PID` files whose process is gone (killed before it could clean
  /// up). Files of live processes, and anything not named so, are left alone.
  private static func removeStalePartials(of target: String, in directory: String) {
    let prefix = Array((baseName(of: target) + ".partial-").utf8)
    guard let stream = opendir(directory) else { return }
    defer { closedir(stream) }
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        Array(raw.prefix { $0 != 0 })
      }
      guard name.count > prefix.count, name.starts(with: prefix) else { continue }
      let digits = name[prefix.count...]
      guard digits.count <= 10, digits.allSatisfy({ (48...57).contains($0) }),
        let pid = Int32(String(decoding: digits, as: UTF8.self)), pid > 0, pid != getpid(),
        kill(pid, 0) != 0, errno == ESRCH
      else { continue }
      unlink(directory + "/" + String(decoding: name, as: UTF8.self))
    }
  }

  /// The file a symbolic link (or chain of links) points to; `path` itself otherwise.
  private static func resolved(_ path: String) -> String {
    guard let real = realpath(path, nil) else { return path }
    defer { free(real) }
    return String(cString: real)
  }

  private static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    let directory = path[..<slash]
    return directory.isEmpty ? "/" : String(directory)
  }

  private static func baseName(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }
}

/// Why an output file could not be written. Each description is one line.
enum OutputFileError: CommandFailure, CustomStringConvertible {
  /// The path must not be written (a database, an input, a directory, …): exit 64.
  case refused(path: String, reason: String)
  /// Writing failed (no space, permissions, missing directory): exit 74.
  case cannotWrite(path: String, reason: String)
  /// The path is a FIFO that no process reads (writing would wait forever): exit 74.
  case noReader(path: String)

  /// 64 for a path that must not be written, 74 for a write that failed.
  var exitCode: ExitCode {
    switch self {
    case .refused: .usage
    case .cannotWrite, .noReader: .ioError
    }
  }

  var description: String {
    switch self {
    case .refused(let path, let reason):
      "refusing to write '\(path)': \(reason); choose another output file"
    case .cannotWrite(let path, let reason):
      "cannot write '\(path)' (\(reason)); check the directory exists, is writable and has space"
    case .noReader(let path):
      "cannot write '\(path)': it is a FIFO that no process is reading; start the reader first"
    }
  }
}

/// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`, which the C headers spell as a macro Swift does
/// not import).
private let openTemporaryFlag: Int32 = __O_TMPFILE | O_DIRECTORY

/// The C library's `write`, named apart from `OutputFile.write(_:)`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}
