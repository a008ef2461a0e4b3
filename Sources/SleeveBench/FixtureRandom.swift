/// The benchmark fixtures' fixed-seed generator (a 64-bit LCG, Knuth's MMIX constants): the
/// same seed writes the same file on every machine.
struct FixtureRandom {
  private var state: UInt64

  /// A generator starting from `seed`.
  init(seed: UInt64) { state = seed }

  /// The next value, 53 bits.
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state >> 11
  }

  /// A value in `0..<bound` (`bound` > 0).
  mutating func next(_ bound: UInt64) -> UInt64 { next() % bound }
}
