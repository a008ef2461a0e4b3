#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The standard normal distribution's tail, for the tests' p-values.
enum NormalDistribution {
  /// P(Z > z) for a standard normal Z.
  static func survival(_ z: Double) -> Double {
    0.5 * erfc(z / 2.0.squareRoot())
  }
}
