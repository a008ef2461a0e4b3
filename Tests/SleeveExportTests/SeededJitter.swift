import SleeveTestSupport
import Synchronization

/// A jitter source for `OTLPHTTPSender` drawn from a seeded generator, so a failing run
/// replays: print `seed` in failure messages.
final class SeededJitter: Sendable {
  let seed: UInt64
  private let generator: Mutex<SeededGenerator>

  init(seed: UInt64) {
    self.seed = seed
    generator = Mutex(SeededGenerator(seed: seed))
  }

  /// The next uniform value in 0..<1.
  func next() -> Double {
    generator.withLock { Double.random(in: 0..<1, using: &$0) }
  }
}
