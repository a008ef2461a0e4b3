import Synchronization

/// A jitter source for `OTLPHTTPSender` drawn from a seeded generator, so a failing run
/// replays: print `seed` in failure messages.
public final class SeededJitter: Sendable {
  /// The seed, to print in failure messages.
  public let seed: UInt64
  private let generator: Mutex<SeededGenerator>

  /// A source replaying the values of `seed`.
  public init(seed: UInt64) {
    self.seed = seed
    generator = Mutex(SeededGenerator(seed: seed))
  }

  /// The next uniform value in 0..<1.
  public func next() -> Double {
    generator.withLock { Double.random(in: 0..<1, using: &$0) }
  }
}
