#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Wall-clock time as stored in `*_unix_ns` columns.
public enum WallClock {
  /// Nanoseconds since the Unix epoch (UTC), from the system's real-time clock.
  public static func unixNanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
  }
}
