import Foundation
import SleeveCore
import SleeveRecorder

/// One recorder per database path for the whole test process, so parallel tests share one
/// writer per file. Recorders live until the process exits, when they are flushed.
enum SharedRecorders {
  private static let recorders = Locked<[String: Recorder]>([:])

  /// The database path: the one given, else `$SLEEVE_DB`, else `sleeve.sqlite` in the current
  /// directory.
  static func resolvedPath(_ explicit: String?) -> String {
    if let explicit { return explicit }
    if let fromEnvironment = ProcessInfo.processInfo.environment["SLEEVE_DB"],
      !fromEnvironment.isEmpty
    {
      return fromEnvironment
    }
    return "sleeve.sqlite"
  }

  /// The shared recorder for `path`, opened on first use without blocking a thread of the
  /// cooperative pool; when two tests open it at once, the first one kept wins and the other
  /// is released.
  static func recorder(for path: String) async throws -> Recorder {
    if let recorder = recorders.withLock({ $0[path] }) { return recorder }
    let opened = try await Recorder(path: path)
    return recorders.withLock { recorders in
      if let recorder = recorders[path] { return recorder }
      recorders[path] = opened
      return opened
    }
  }
}
