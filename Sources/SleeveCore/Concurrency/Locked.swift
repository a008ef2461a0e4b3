#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a POSIX mutex, reached only through ``withLock(_:)``.
///
/// Sleeve uses this instead of `Synchronization.Mutex` because ThreadSanitizer understands
/// `pthread_mutex_lock`, while the futex-based `Mutex` of Swift 6.3 on Linux makes it report
/// races that are not there; a sanitizer that cries wolf would hide real races. The cost of
/// an uncontended lock is the same.
///
/// `@unchecked Sendable` is sound because `value` is only read or written inside
/// `withLock`, between `pthread_mutex_lock` and `pthread_mutex_unlock` on the same mutex, and
/// the mutex itself lives at a fixed heap address for the object's lifetime.
package final class Locked<Value>: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  /// Only ever reached through `withLock`, under the mutex, so two accesses never overlap (a
  /// nested `withLock` on the same value would block on the mutex before reaching it): the
  /// dynamic exclusivity check (about 80 instructions a call) could never fire.
  @exclusivity(unchecked) private var value: Value

  /// Guards `value`.
  package init(_ value: Value) {
    self.value = value
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with exclusive access to the value.
  @inline(__always)
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}
