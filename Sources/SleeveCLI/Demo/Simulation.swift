import SleeveCore

/// What the demo's handlers do, from fixed-seed generators so every run is the same: which
/// calls fail, and how long each handler takes.
///
/// A handler declares its time (``work(_:)``, ``takes(_:)``) instead of spending it, and
/// ``SimulatedTime`` records that time in place of the machine's: every duration, and every
/// percentile, verdict and lint finding drawn from durations, is the same on any machine and
/// under any load, and the demo burns no CPU to pretend. A handler that declares nothing took
/// a plain handler's few hundred nanoseconds, drawn from a generator of its own, so the draws
/// that decide failures are the handlers' alone.
@MainActor
final class Simulation {
  /// A 64-bit linear congruential generator (Knuth's MMIX constants).
  struct Generator {
    private var state: UInt64

    init(seed: UInt64) { state = seed &* 6_364_136_223_846_793_005 &+ 1 }

    /// A value in 0..<bound.
    mutating func next(_ bound: UInt64) -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (state >> 33) % bound
    }
  }

  /// One unit of ``work(_:)``: 100 ns.
  static let unitNanoseconds: Int64 = 100

  private var handlers: Generator
  private var plain: Generator
  /// The time the running handler declared, until its outcome takes it.
  private var declared: Int64?

  /// A simulation whose draws all follow from `seed`.
  init(seed: UInt64) {
    handlers = Generator(seed: seed)
    plain = Generator(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
  }

  /// A value in 0..<bound, for the handlers' own decisions (a declined card, a timeout).
  func next(_ bound: UInt64) -> UInt64 { handlers.next(bound) }

  /// The running handler does `scale` units of work: 50 to 250 units per scale (5 to 25 µs
  /// at scale 1), and 3 calls in 100 a long tail of 2,000 units per scale (200 µs).
  func work(_ scale: UInt64) {
    let units = next(100) < 3 ? 2_000 * scale : 50 + next(200) * scale
    declare(Int64(units) * Self.unitNanoseconds)
  }

  /// The running handler takes `duration`: work it does (a synchronous handler), or what it
  /// waits for (an async one).
  func takes(_ duration: Duration) {
    declare(MonotonicClock.nanoseconds(in: duration))
  }

  /// The time the handler that just ran took, in nanoseconds: what it declared, else a plain
  /// handler's 200 to 1,000 ns.
  func takeDeclared() -> Int64 {
    defer { declared = nil }
    return declared ?? 200 + Int64(plain.next(801))
  }

  private func declare(_ nanoseconds: Int64) {
    declared = (declared ?? 0) + nanoseconds
  }
}
