import Foundation

/// Runs CPU-heavy test work on a thread of its own instead of the cooperative pool, whose few
/// threads (one per core) also resume the time-bounded recorder tests running beside it: a
/// computation that held a pool thread for seconds would make their bounded waits look slow.
public enum OffThePool {
  /// The value `body` returns, computed on a new thread; its error is rethrown here.
  public static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value)
    async throws -> Value
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Result { try body() }) }.start()
    }
  }
}
