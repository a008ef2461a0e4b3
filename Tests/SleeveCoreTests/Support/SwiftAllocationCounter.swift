import Glibc
import Synchronization

/// Counts the Swift heap objects (class instances, closure contexts, boxes, and the storage of
/// strings, arrays and dictionaries) that one thread allocates while it runs a body, through
/// the Swift runtime's `_swift_allocObject` hook. Allocations that bypass the Swift runtime
/// (C `malloc` called directly) are not seen: `scripts/bench` counts those with valgrind.
///
/// Use it only in a process of its own (an exit test): while the hook is installed, the
/// runtime's first hooked allocation turns on its Instruments-only swizzling mode, in which
/// retaining a small string crashes on Linux (Swift 6.3.1). The hook turns that mode off again
/// at once, but another thread could retain in between.
enum SwiftAllocationCounter {
  /// The runtime's allocation entry point: metadata, size, alignment mask.
  fileprivate typealias AllocObject =
    @convention(c) (UnsafeRawPointer?, Int, Int) -> UnsafeMutableRawPointer?

  /// How many Swift objects `body` allocates on the calling thread; `nil` when this runtime
  /// exports no hook (nothing can be counted, so a test must fail rather than pass unseen).
  /// The hook is installed only while `body` runs.
  static func count(_ body: () -> Void) -> Int? {
    guard let hook = dlsym(nil, "_swift_allocObject"),
      let mode = dlsym(
        nil, "_swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly")
    else { return nil }
    let slot = hook.assumingMemoryBound(to: AllocObject.self)
    return installation.withLock { _ in
      counted.store(0, ordering: .sequentiallyConsistent)
      countedThread.store(UInt(pthread_self()), ordering: .sequentiallyConsistent)
      swizzlingMode.pointee = mode.assumingMemoryBound(to: UInt8.self)
      forward.pointee = slot.pointee
      slot.pointee = countingAllocObject
      body()
      slot.pointee = forward.pointee!
      swizzlingMode.pointee?.pointee = 0
      countedThread.store(0, ordering: .sequentiallyConsistent)
      return counted.load(ordering: .sequentiallyConsistent)
    }
  }

  /// Held while the hook is installed: one count at a time.
  private static let installation = Mutex(())
}

/// The runtime's own allocation function, which the hook calls. Safe unlocked: written under
/// `SwiftAllocationCounter.installation` before the hook is stored in the runtime's hook
/// variable, and read only by the hook.
nonisolated(unsafe) private let forward = UnsafeMutablePointer<
  SwiftAllocationCounter.AllocObject?
>.allocate(capacity: 1)

/// The runtime's swizzling-mode flag. Safe unlocked for the same reason as `forward`; the
/// runtime's own stores to the flag are single bytes, as are the hook's.
nonisolated(unsafe) private let swizzlingMode = UnsafeMutablePointer<
  UnsafeMutablePointer<UInt8>?
>.allocate(capacity: 1)

/// The thread being counted (`pthread_self()`), or 0 when none is.
private let countedThread = Atomic<UInt>(0)

/// The allocations counted on that thread.
private let counted = Atomic<Int>(0)

/// The hook: turns the swizzling mode off again, counts an allocation made on the counted
/// thread, then allocates as the runtime would. It allocates nothing itself.
private let countingAllocObject: SwiftAllocationCounter.AllocObject = {
  metadata, size, alignmentMask in
  swizzlingMode.pointee?.pointee = 0
  if countedThread.load(ordering: .relaxed) == UInt(pthread_self()) {
    counted.add(1, ordering: .relaxed)
  }
  return forward.pointee!(metadata, size, alignmentMask)
}
