#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether a recorded session ended, is still recording, or was cut off (its process died
/// before `end()`): read from its row, its host and process id, and its writer's heartbeat.
public enum SessionLiveness: String, Sendable {
  /// `end()` was recorded.
  case ended
  /// Its process is alive and its writer has written within ``staleAfter``.
  case running
  /// Its process is gone (same host) or its writer has been silent past ``staleAfter``.
  case unterminated

  /// A running session's writer refreshes its heartbeat about once a second; silence this
  /// long means it is gone.
  public static let staleAfterNanoseconds: Int64 = 60_000_000_000

  /// Classifies a session row.
  ///
  /// - Parameters:
  ///   - status: The `status` column (`running` or `ended`).
  ///   - host: The `host` column.
  ///   - pid: The `pid` column.
  ///   - heartbeatUnixNanoseconds: The `heartbeat_unix_ns` column.
  ///   - now: The current wall-clock time, Unix nanoseconds.
  ///   - localHost: This machine's host name.
  ///   - isAlive: Whether a process id is alive on this machine.
  public static func classify(
    status: String, host: String, pid: Int64, heartbeatUnixNanoseconds: Int64,
    now: Int64 = WallClock.unixNanoseconds(), localHost: String = SessionLiveness.localHostName(),
    isAlive: (Int64) -> Bool = SessionLiveness.processIsAlive
  ) -> SessionLiveness {
    if status == RecordCodes.SessionStatus.ended.name { return .ended }
    // Any heartbeat a file holds (Int64.min included) gives an age: one too large to compute is
    // stale.
    let (age, overflow) = now.subtractingReportingOverflow(heartbeatUnixNanoseconds)
    if overflow || age > staleAfterNanoseconds { return .unterminated }
    if host == localHost && !isAlive(pid) { return .unterminated }
    return .running
  }

  /// This machine's host name.
  public static func localHostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count) == 0 else { return "" }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether `pid` names a live process on this machine (one we may not signal counts).
  public static func processIsAlive(_ pid: Int64) -> Bool {
    guard pid > 0, pid <= Int64(Int32.max) else { return false }
    return kill(pid_t(pid), 0) == 0 || errno == EPERM
  }
}
