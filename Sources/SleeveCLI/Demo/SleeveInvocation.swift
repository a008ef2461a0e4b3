#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How the demo's "Try next" commands start, so they run as printed: `sleeve` when the
/// `sleeve` a shell finds on `PATH` is the one running, else `swift run sleeve` (the package's
/// own, run from its directory, as README's first commands do).
enum SleeveInvocation {
  /// `sleeve` or `swift run sleeve`, for the running executable `running` (resolved) and the
  /// search path `path` (`PATH`'s value; none: nothing is found on it).
  static func command(running: String?, path: String?) -> String {
    guard let running, let path else { return "swift run sleeve" }
    for directory in path.split(separator: ":", omittingEmptySubsequences: false) {
      // An empty entry is the current directory, as for the shell.
      let candidate = (directory.isEmpty ? "." : String(directory)) + "/sleeve"
      var status = stat()
      guard stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
        access(candidate, X_OK) == 0
      else { continue }
      // The first executable `sleeve` is what the shell runs.
      return resolved(candidate) == running ? "sleeve" : "swift run sleeve"
    }
    return "swift run sleeve"
  }

  /// The running executable's resolved path (`/proc/self/exe` on Linux, else the path it was
  /// started by, when that names it), or `nil` when it cannot be told.
  static func running() -> String? {
    resolved("/proc/self/exe")
      ?? CommandLine.arguments.first.flatMap { argument in
        argument.contains("/") ? resolved(argument) : nil
      }
  }

  /// `path` with every symbolic link resolved, or `nil` when nothing is there.
  private static func resolved(_ path: String) -> String? {
    guard let real = realpath(path, nil) else { return nil }
    defer { free(real) }
    return String(cString: real)
  }
}
