import Dispatch
import Foundation
import SleeveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Closes every live recorder when the process exits normally (`exit`, return from `main`, a
/// script's end), so a recorder that was never released still writes everything buffered,
/// closes its connection (which checkpoints the file and removes its `-wal`) and leaves one
/// whole database file. Each recorder gets its `waitTimeout` to finish. A kill cannot be
/// caught; the loss window then is the flush interval.
enum ExitFlush {
  private static let writers = Locked<[ObjectIdentifier: Writer]>([:])
  private static let installed = Locked(false)

  static func register(_ writer: Writer) {
    let install = installed.withLock { installed -> Bool in
      defer { installed = true }
      return !installed
    }
    if install { atexit { ExitFlush.closeAll() } }
    writers.withLock { $0[ObjectIdentifier(writer)] = writer }
  }

  static func unregister(_ writer: Writer) {
    writers.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(writer)) }
  }

  /// Closes every live writer, each waited for up to its wait timeout.
  static func closeAll() {
    let live = writers.withLock { writers in
      defer { writers.removeAll() }
      return Array(writers.values)
    }
    // On the main thread (a return from `main`, `exit` in a script), what sessions keep
    // staged is handed over first; from another thread the main actor cannot be entered
    // here, and records staged since the last tick are lost (the flush interval's window).
    if Thread.isMainThread {
      MainActor.assumeIsolated {
        for writer in live { writer.staged.handOverAll() }
      }
    }
    for writer in live { writer.close(timeout: writer.waitTimeout) }
  }
}
