#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if DEBUG
  import Synchronization
#endif

/// Nanosecond timestamps from a monotonic clock, shared by the core and every observer.
///
/// Timestamps never go backwards and are unaffected by wall-clock changes. They are comparable
/// within one process only (they count from an unspecified origin, typically boot); a recorder
/// pairs one of them with a wall-clock time to place a session in calendar time.
public enum MonotonicClock {
  /// Nanoseconds since this clock's origin.
  public static func nanoseconds() -> Int64 {
    #if DEBUG
      ClockReadWatch.noteRead()
    #endif
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
  }

  /// Converts a `Duration` to whole nanoseconds, saturating at `Int64`'s range.
  package static func nanoseconds(in duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (scaled, multiplyOverflowed) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    let (total, addOverflowed) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    guard !multiplyOverflowed, !addOverflowed else { return seconds < 0 ? .min : .max }
    return total
  }
}

#if DEBUG
  /// Debug builds only: counts the clock reads one thread makes while a test watches it, so a
  /// test can prove that a path reads no clock. Release builds have no counter and no cost.
  package enum ClockReadWatch {
    private static let watchedThread = Atomic<UInt>(0)
    private static let reads = Atomic<Int>(0)
    private static let watching = Locked(())

    /// How many times `body` read ``MonotonicClock`` on the calling thread. Reads by other
    /// threads are not counted; one watch runs at a time.
    package static func reads(during body: () throws -> Void) rethrows -> Int {
      try watching.withLock { _ in
        reads.store(0, ordering: .sequentiallyConsistent)
        watchedThread.store(currentThread, ordering: .sequentiallyConsistent)
        defer { watchedThread.store(0, ordering: .sequentiallyConsistent) }
        try body()
        return reads.load(ordering: .sequentiallyConsistent)
      }
    }

    private static var currentThread: UInt {
      #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
      #else
        UInt(pthread_self())
      #endif
    }

    static func noteRead() {
      let watched = watchedThread.load(ordering: .relaxed)
      guard watched != 0, watched == currentThread else { return }
      reads.add(1, ordering: .relaxed)
    }
  }
#endif
