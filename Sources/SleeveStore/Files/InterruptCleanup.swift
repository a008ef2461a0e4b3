import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Removes files a command made for itself (an export's unfinished file, a scratch copy of a
/// history and its directory) when the process is interrupted (SIGINT, SIGTERM, SIGHUP), then
/// lets the signal end the process as it would have. Signals the process ignores stay ignored.
/// Several may be held at once (an export of a mirrored history holds two); each is released
/// when its files are gone or kept.
///
/// ```swift
/// let cleanup = InterruptCleanup(files: [path, path + "-wal"], directory: directory)
/// defer { cleanup.release() }
/// ```
package final class InterruptCleanup: Sendable {
  private let slot: Int?

  /// Starts removing `files`, then `directory` (when empty), on interruption. When every slot
  /// is taken (more than ``InterruptCleanup/slots`` at once), nothing is registered.
  package init(files: [String], directory: String? = nil) {
    let paths = Array((files + (directory.map { [$0 + "/"] } ?? [])).prefix(pathsPerSlot))
    slot = claimedSlots.withLock { claimed -> Int? in
      guard let free = (0..<slotCount).first(where: { !claimed.contains($0) }) else {
        return nil
      }
      for (index, path) in paths.enumerated() {
        slotPaths[free * pathsPerSlot + index] = strdup(path)
      }
      if claimed.isEmpty { installHandlers() }
      claimed.insert(free)
      return free
    }
  }

  /// Stops it (the files were kept or removed); idempotent.
  package func release() {
    guard let slot else { return }
    claimedSlots.withLock { claimed in
      guard claimed.contains(slot) else { return }
      claimed.remove(slot)
      if claimed.isEmpty { restoreHandlers() }
      for index in 0..<pathsPerSlot {
        let cell = slot * pathsPerSlot + index
        let path = slotPaths[cell]
        slotPaths[cell] = nil  // cleared before it is freed: the handler never reads freed memory
        free(path)
      }
    }
  }

  deinit { release() }

  /// How many may be held at once.
  package static var slots: Int { slotCount }
}

private let slotCount = 8
private let pathsPerSlot = 6

/// The paths of every slot, C strings the signal handler reads (`nil`: none). Allocated once
/// and never freed. `nonisolated(unsafe)` is safe: cells are written only under
/// `claimedSlots`' lock, a path is stored before its slot's handlers can find it and cleared
/// before it is freed, and a pointer-sized store is atomic on every platform Swift runs on, so
/// the handler reads either a whole path or `nil`.
nonisolated(unsafe) private let slotPaths: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
  let cells = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(
    capacity: slotCount * pathsPerSlot)
  cells.initialize(repeating: nil, count: slotCount * pathsPerSlot)
  return cells
}()

private let claimedSlots = Mutex<Set<Int>>([])

/// Which signals the handler was installed for (not those the process ignores); written only
/// under `claimedSlots`' lock.
nonisolated(unsafe) private var installedSignals: [Int32] = []

private func installHandlers() {
  installedSignals = []
  for number in [SIGINT, SIGTERM, SIGHUP] {
    let previous = signal(number, removeAndResignal)
    if let previous, unsafeBitCast(previous, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self) {
      signal(number, SIG_IGN)
    } else {
      installedSignals.append(number)
    }
  }
}

private func restoreHandlers() {
  for number in installedSignals { signal(number, SIG_DFL) }
  installedSignals = []
}

/// Async-signal-safe: `unlink`, `rmdir`, `signal` and `raise` only, over the fixed cells.
private func removeAndResignal(_ number: Int32) {
  for cell in 0..<(slotCount * pathsPerSlot) {
    guard let path = slotPaths[cell] else { continue }
    let length = strlen(path)
    if length > 1, path[length - 1] == UInt8(ascii: "/") {
      path[length - 1] = 0
      rmdir(path)
    } else {
      unlink(path)
    }
  }
  signal(number, SIG_DFL)
  raise(number)
}
