import SleeveCore
import Testing

/// The handler-lifetime proofs (``HandlerLifetimeDuringFireTests``) can fail only against an
/// optimized core, and `swift test` builds in debug: `Package.swift` optimizes SleeveCore there
/// too, and this holds it. (CI's ThreadSanitizer run is unoptimized on purpose and skips it.)
@Suite("The debug build optimizes the core")
struct OptimizedCoreTests {
  @Test("SleeveCore is compiled with -O, so the lifetime proofs can fail in swift test")
  func coreIsOptimized() {
    #expect(
      CoreBuild.isOptimized,
      "SleeveCore is unoptimized: give it optimizedInDebug in Package.swift")
  }
}
