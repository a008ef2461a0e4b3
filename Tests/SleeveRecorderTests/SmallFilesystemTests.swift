import Foundation
import SleeveCore
import SleeveRecorder
import SleeveStore
import SleeveTestSupport
import Testing

/// A real, tiny filesystem (tmpfs), where mounting one is allowed (root in a container).
enum SmallFilesystem {
  /// Permission to mount, as a proof's need: nothing installs it.
  static var tool: ProofTool {
    ProofTool(
      "mount", install: .permission("needs permission to mount a tmpfs (root in a container)"),
      isAvailable: canMount)
  }

  static let canMount: Bool = {
    let directory = TemporaryDirectory()
    guard mount(directory.url.path, size: "64k") else { return false }
    unmount(directory.url.path)
    return true
  }()

  @discardableResult
  static func mount(_ path: String, size: String) -> Bool {
    run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]) == 0
  }

  static func unmount(_ path: String) { run("/bin/umount", [path]) }

  @discardableResult
  private static func run(_ tool: String, _ arguments: [String]) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return -1 }
    process.waitForExit()
    return process.terminationStatus
  }
}

@MainActor
@Suite("Disk full on a real filesystem", .serialized)
struct SmallFilesystemTests {
  @Test(
    "a full filesystem fails writes with the error in the callback; dispatch and accounting hold",
    .enabled(if: Proofs.run(needs: SmallFilesystem.tool), "needs permission to mount a tmpfs"))
  func realFullFilesystem() async throws {
    let directory = TemporaryDirectory()
    let mountPoint = directory.path("tiny")
    try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
    // Room for the migrated schema (about 212 KiB since 0009, written once to the -wal and
    // once to the file) and little more: 20,000 fires and outcomes need over a megabyte.
    try #require(SmallFilesystem.mount(mountPoint, size: "640k"))
    defer { SmallFilesystem.unmount(mountPoint) }
    let path = mountPoint + "/full.sqlite"
    let errors = Locked<[RecorderError]>([])
    let recorder = try await Recorder(
      path: path,
      options: RecorderOptions(
        whenFull: .block, bufferCapacity: 1_024, flushCount: 256,
        onWriteError: { error in errors.withLock { $0.append(error) } }))
    let session = try await recorder.startSession(name: "tiny")
    let button = Button(name: "b", observer: session)
    var handled = 0
    button.on(.touchUpInside) { _ in handled += 1 }
    for _ in 0..<20_000 { button.sendActions(for: .touchUpInside) }
    try await session.flush()
    #expect(handled == 20_000)
    let codes = errors.withLock { $0.compactMap { $0.sqliteError?.primaryCode } }
    #expect(!codes.isEmpty)
    #expect(codes.allSatisfy { $0 == SQLiteError.full || $0 == SQLiteError.ioError })
    guard case .failedWrites(let failed, _) = session.status else {
      Issue.record("status \(session.status)")
      return
    }
    let reader = try Connection(path: path, mode: .readOnly)
    let written = Int(
      try reader.scalarInt(
        """
        SELECT (SELECT count(*) FROM fires) + (SELECT count(*) FROM outcomes)
          + (SELECT count(*) FROM controls) + (SELECT count(*) FROM registrations)
        """) ?? 0)
    // 20,000 fires and their outcomes, and the control's and the handler's own events (which a
    // batch that fails as the disk fills loses too, counted).
    #expect(written + failed + session.droppedEvents == 40_002)
    #expect(try reader.scalarText("PRAGMA integrity_check") == "ok")
  }
}
