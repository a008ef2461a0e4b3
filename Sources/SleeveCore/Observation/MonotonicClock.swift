#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Nanosecond timestamps from a monotonic clock, shared by the core and every observer.
///
/// Timestamps never go backwards and are unaffected by wall-clock changes. They are comparable
/// within one process only (they count from an unspecified origin, typically boot); a recorder
/// pairs one of them with a wall-clock time to place a session in calendar time.
public enum MonotonicClock {
  /// Nanoseconds since this clock's origin.
  public static func nanoseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
  }

  /// Converts a `Duration` to whole nanoseconds, saturating at `Int64`'s range.
  public static func nanoseconds(in duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (scaled, multiplyOverflowed) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (total, addOverflowed) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    guard !multiplyOverflowed, !addOverflowed else { return seconds < 0 ? .min : .max }
    return total
  }
}
