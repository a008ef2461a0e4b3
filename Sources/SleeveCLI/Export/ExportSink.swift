/// Where an export goes: standard output, or an `OutputFile` (which appears only once it is
/// complete, never over a database). Output is buffered in 1 MiB blocks: memory stays flat.
final class ExportSink {
  /// The file written, or `nil` for standard output.
  var path: String? { file?.path }
  private let file: OutputFile?
  private let console: Console
  private var buffer = ""

  private static let blockSize = 1 << 20

  /// Opens `path` for a new export, or `console`'s standard output when `nil`.
  ///
  /// - Parameter protected: The database being exported: never written over.
  /// - Throws: `OutputFileError` when the file cannot or must not be written.
  init(path: String?, protecting protected: [String], console: Console) throws {
    self.console = console
    buffer.reserveCapacity(Self.blockSize + 4_096)
    file = try path.map { path throws(OutputFileError) in
      try OutputFile(path: path, protecting: protected)
    }
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
    try file?.finish()
  }

  private func flush() throws {
    defer { buffer.removeAll(keepingCapacity: true) }
    guard let file else {
      if let failure = console.outReportingFailure(buffer) {
        throw OutputFileError.cannotWrite(path: "standard output", reason: failure)
      }
      return
    }
    try buffer.withUTF8 { bytes in try file.write(UnsafeRawBufferPointer(bytes)) }
  }
}
