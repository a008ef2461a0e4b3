#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The standard normal distribution's tail and its inverse, for the tests' p-values and for
/// power.
enum NormalDistribution {
  /// P(Z > z) for a standard normal Z.
  static func survival(_ z: Double) -> Double {
    0.5 * erfc(z / 2.0.squareRoot())
  }

  /// The standard normal density at `z`.
  static func density(_ z: Double) -> Double {
    exp(-0.5 * z * z) / (2 * Double.pi).squareRoot()
  }

  /// The z with P(Z > z) = `tail` (scipy's `norm.isf`): +∞ at 0, −∞ at 1, NaN outside 0…1.
  ///
  /// A starting point from Abramowitz and Stegun 26.2.23 (error below 4.5e-4), then Halley
  /// steps on ``survival(_:)`` until they stop moving: full double precision in the upper tail
  /// (tails below 0.5 are solved directly; above it by symmetry, where `1 − tail` rounds).
  static func inverseSurvival(_ tail: Double) -> Double {
    guard tail > 0, tail < 1 else {
      if tail == 0 { return .infinity }
      if tail == 1 { return -.infinity }
      return .nan
    }
    if tail > 0.5 { return -inverseSurvival(1 - tail) }
    if tail == 0.5 { return 0 }
    let t = (-2 * log(tail)).squareRoot()
    var z =
      t - (2.515517 + 0.802853 * t + 0.010328 * t * t)
      / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t)
    for _ in 0..<8 {
      let density = density(z)
      guard density > 0 else { break }
      let u = (survival(z) - tail) / density
      let step = u / (1 - z * u / 2)
      z += step
      if abs(step) <= 1e-16 * max(1, abs(z)) { break }
    }
    return z
  }

  /// The z with P(Z ≤ z) = `probability` (scipy's `norm.ppf`).
  static func quantile(_ probability: Double) -> Double {
    -inverseSurvival(probability)
  }
}

/// A one-sided test by the normal approximation, from its centred statistic and its variance:
/// z = excess / √variance and p = P(Z ≥ z). With no variance there is no evidence either way:
/// z is 0, p is 1 and `noVariance` is true (the rule every test here follows).
struct OneSidedNormal {
  let z: Double
  let pValue: Double
  let noVariance: Bool

  init(excess: Double, variance: Double) {
    guard variance > 0 else {
      (z, pValue, noVariance) = (0, 1, true)
      return
    }
    z = excess / variance.squareRoot()
    pValue = NormalDistribution.survival(z)
    noVariance = false
  }
}
