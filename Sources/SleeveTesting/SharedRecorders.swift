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

  /// The shared recorder for `path`, opened on first use.
  static func recorder(for path: String) throws -> Recorder {
    try recorders.withLock { recorders in
      if let recorder = recorders[path] { return recorder }
      let recorder = try Recorder(path: path)
      recorders[path] = recorder
      return recorder
    }
  }
}
