import SleeveCore

/// Points in the wait protocol where a test can hold one side until the other has moved, so
/// an interleaving that a loaded machine produces by chance is produced on purpose.
///
/// Internal: only `@testable` tests set them. With none set, each point costs one lock and a
/// `nil` check, and only off the hot path (after a failed attempt, a batch given up, a wait
/// past its deadline, a wait abandoned).
final class WaitSeams: Sendable {
  /// What runs at each point (each on the thread that reaches it).
  struct Hooks: Sendable {
    /// The writer, after an attempt that met a lock held by another process, before it
    /// decides whether to try again.
    var attemptFailed: (@Sendable () -> Void)?
    /// The writer, after it gave a batch up, before the verdict is published to waiters.
    var batchGivenUp: (@Sendable () -> Void)?
    /// A waiter, when its deadline passed without a verdict.
    var waitExpired: (@Sendable () -> Void)?
    /// A waiter, when it left without a verdict (past its deadline and the grace after it).
    var waitAbandoned: (@Sendable () -> Void)?
  }

  private let hooks = Locked(Hooks())

  /// Replaces the hooks.
  func set(_ new: Hooks) {
    hooks.withLock { $0 = new }
  }

  func attemptFailed() { hooks.withLock { $0.attemptFailed }?() }
  func batchGivenUp() { hooks.withLock { $0.batchGivenUp }?() }
  func waitExpired() { hooks.withLock { $0.waitExpired }?() }
  func waitAbandoned() { hooks.withLock { $0.waitAbandoned }?() }
}
