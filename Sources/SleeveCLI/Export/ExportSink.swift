#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an export goes: standard output, or a file that appears only once it is complete
/// (written next to it under a temporary name, then renamed), so a failed or interrupted export
/// never leaves a truncated file behind. Output is buffered in 1 MiB blocks: memory stays flat.
final class ExportSink {
  /// The file written, or `nil` for standard output.
  let path: String?
  private let temporaryPath: String?
  private let cleanup: PartialFileCleanup?
  private let descriptor: Int32
  private let console: Console
  private var buffer = ""
  private var finished = false

  private static let blockSize = 1 << 20

  /// Opens `path` for a new export, or `console`'s standard output when `nil`.
  ///
  /// - Throws: `ExportError.cannotWrite` when the file cannot be created.
  init(path: String?, console: Console) throws {
    self.path = path
    self.console = console
    buffer.reserveCapacity(Self.blockSize + 4_096)
    guard let path else {
      temporaryPath = nil
      cleanup = nil
      descriptor = 1
      return
    }
    let temporary = path + ".partial-\(getpid())"
    // Watch before creating, so no signal can come between the file and its cleanup.
    let cleanup = PartialFileCleanup(path: temporary)
    let opened = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard opened >= 0 else {
      let reason = Self.lastError
      cleanup.release()
      throw ExportError.cannotWrite(path: path, reason: reason)
    }
    temporaryPath = temporary
    descriptor = opened
    self.cleanup = cleanup
  }

  deinit {
    if !finished, let temporaryPath {
      close(descriptor)
      unlink(temporaryPath)
    }
    cleanup?.release()
  }

  /// Appends `text`.
  func write(_ text: String) throws {
    try append { $0 += text }
  }

  /// Lets `body` append to the output in place (no intermediate strings).
  func append(_ body: (inout String) -> Void) throws {
    body(&buffer)
    if buffer.utf8.count >= Self.blockSize { try flush() }
  }

  /// Writes what is buffered and, for a file, syncs it and moves it into place.
  func finish() throws {
    try flush()
    guard let path, let temporaryPath else { return }
    guard fsync(descriptor) == 0 else {
      throw ExportError.cannotWrite(path: path, reason: Self.lastError)
    }
    finished = true
    guard close(descriptor) == 0 else {
      let reason = Self.lastError
      unlink(temporaryPath)
      throw ExportError.cannotWrite(path: path, reason: reason)
    }
    guard rename(temporaryPath, path) == 0 else {
      let reason = Self.lastError
      unlink(temporaryPath)
      throw ExportError.cannotWrite(path: path, reason: reason)
    }
    cleanup?.release()
  }

  private func flush() throws {
    defer { buffer.removeAll(keepingCapacity: true) }
    guard let path else {
      if let failure = console.outReportingFailure(buffer) {
        throw ExportError.cannotWrite(path: "standard output", reason: failure)
      }
      return
    }
    var failure: String?
    buffer.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = writeBytes(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = Self.lastError
          return
        }
        offset += written
      }
    }
    if let failure { throw ExportError.cannotWrite(path: path, reason: failure) }
  }

  private static var lastError: String { String(cString: strerror(errno)) }
}

/// The C library's `write`, named apart from `ExportSink.write(_:)`.
private func writeBytes(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

/// Why an export stopped. Each description is one line saying what to do.
enum ExportError: Error, CustomStringConvertible {
  /// The output could not be written.
  case cannotWrite(path: String, reason: String)
  /// `--out` names the database being exported.
  case outputIsDatabase(path: String)

  var description: String {
    switch self {
    case .cannotWrite(let path, let reason):
      "cannot write '\(path)' (\(reason)); check the directory exists, is writable and has space"
    case .outputIsDatabase(let path):
      "--out '\(path)' is the database being exported; write the export to another file"
    }
  }
}
