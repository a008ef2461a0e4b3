import Dispatch
import SleeveCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Flushes every live recorder when the process exits normally (`exit`, return from `main`),
/// so a batched session loses nothing on a clean exit even without `end()`. A kill cannot be
/// caught; the loss window then is the flush interval.
enum ExitFlush {
  private static let writers = Locked<[ObjectIdentifier: Writer]>([:])
  private static let installed = Locked(false)

  static func register(_ writer: Writer) {
    let install = installed.withLock { installed -> Bool in
      defer { installed = true }
      return !installed
    }
    if install { atexit { ExitFlush.flushAll() } }
    writers.withLock { $0[ObjectIdentifier(writer)] = writer }
  }

  static func unregister(_ writer: Writer) {
    writers.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(writer)) }
  }

  /// Waits, up to two seconds per recorder, for everything buffered to be written.
  static func flushAll() {
    let live = writers.withLock { Array($0.values) }
    for writer in live {
      writer.buffer.waitUntilFinished(
        writer.buffer.lastAccepted, timeout: .now() + .seconds(2))
    }
  }
}
