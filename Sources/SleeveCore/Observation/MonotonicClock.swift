/// Nanosecond timestamps from a monotonic clock, shared by the core and every observer.
///
/// Timestamps never go backwards and are unaffected by wall-clock changes. They count from an
/// origin fixed the first time the clock is read in this process, so they are comparable
/// within one process only; a recorder pairs one of them with a wall-clock time to place a
/// session in calendar time.
public enum MonotonicClock {
  private static let origin = ContinuousClock.now

  /// Nanoseconds since this process's origin.
  public static func nanoseconds() -> Int64 {
    nanoseconds(in: origin.duration(to: .now))
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
