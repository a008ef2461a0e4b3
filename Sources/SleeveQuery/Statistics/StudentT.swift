#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Student's t distribution: its tails (through the regularized incomplete beta function) and
/// their inverse, for the change-point test and the intervals of a level.
enum StudentT {
  /// P(|T| ≥ |t|) for T with `degrees` degrees of freedom (scipy's `2 * t.sf(abs(t), df)`):
  /// I_x(df/2, 1/2) with x = df / (df + t²). 0 for an infinite t, NaN for a NaN t or
  /// `degrees` ≤ 0.
  static func twoSidedP(_ t: Double, degrees: Double) -> Double {
    guard degrees > 0, !t.isNaN else { return .nan }
    if t.isInfinite { return 0 }
    let x = degrees / (degrees + t * t)
    return RegularizedBeta.value(x, a: degrees / 2, b: 0.5)
  }

  /// P(T > t) (scipy's `t.sf`).
  static func survival(_ t: Double, degrees: Double) -> Double {
    let half = twoSidedP(t, degrees: degrees) / 2
    return t >= 0 ? half : 1 - half
  }

  /// The density of T at `t`.
  static func density(_ t: Double, degrees: Double) -> Double {
    let logNormalizer =
      lgamma((degrees + 1) / 2) - lgamma(degrees / 2) - 0.5 * log(degrees * Double.pi)
    return exp(logNormalizer - (degrees + 1) / 2 * log1p(t * t / degrees))
  }

  /// The t with P(T > t) = `tail` (scipy's `t.isf`): Newton steps on ``survival(_:degrees:)``
  /// from the normal quantile until a step moves it by under 1e-15 relative, kept inside a
  /// bracket that bisection narrows whenever a step would leave it: +∞ at 0, NaN outside 0…1.
  static func inverseSurvival(_ tail: Double, degrees: Double) -> Double {
    guard tail > 0, tail < 1, degrees > 0 else { return tail == 0 ? .infinity : .nan }
    if tail > 0.5 { return -inverseSurvival(1 - tail, degrees: degrees) }
    if tail == 0.5 { return 0 }
    var low = 0.0
    var high = 1.0
    while survival(high, degrees: degrees) > tail && high < 1e300 { high *= 2 }
    var t = min(max(NormalDistribution.inverseSurvival(tail), low), high)
    for _ in 0..<200 {
      let excess = survival(t, degrees: degrees) - tail
      if excess > 0 { low = t } else { high = t }
      var next = t + excess / density(t, degrees: degrees)
      if !(next > low && next < high) { next = (low + high) / 2 }
      let moved = abs(next - t)
      t = next
      if moved <= 1e-15 * t || high - low <= 1e-15 * high { break }
    }
    return t
  }
}

/// The regularized incomplete beta function I_x(a, b), by its continued fraction (evaluated
/// with Lentz's method), on the side of x where the fraction converges fast; the other side
/// by I_x(a, b) = 1 − I_{1−x}(b, a).
enum RegularizedBeta {
  /// I_x(a, b) for a, b > 0 and x in 0…1; NaN otherwise.
  static func value(_ x: Double, a: Double, b: Double) -> Double {
    guard a > 0, b > 0, x >= 0, x <= 1 else { return .nan }
    if x == 0 || x == 1 { return x }
    let logFront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)
    if x < (a + 1) / (a + b + 2) {
      return exp(logFront) * fraction(x, a: a, b: b) / a
    }
    return 1 - exp(logFront) * fraction(1 - x, a: b, b: a) / b
  }

  /// The continued fraction 1 / (1 + d₁ / (1 + d₂ / …)) of I_x(a, b), until a pair of terms
  /// changes it by under 4 ulp (relative 1e-15) or after 1,000 pairs.
  private static func fraction(_ x: Double, a: Double, b: Double) -> Double {
    let tiny = 1e-300
    var c = 1.0
    var d = 1 - (a + b) * x / (a + 1)
    if abs(d) < tiny { d = tiny }
    d = 1 / d
    var result = d
    for m in 1...1_000 {
      let m = Double(m)
      // The even term, then the odd one.
      for numerator in [
        m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
        -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
      ] {
        d = 1 + numerator * d
        if abs(d) < tiny { d = tiny }
        c = 1 + numerator / c
        if abs(c) < tiny { c = tiny }
        d = 1 / d
        result *= d * c
      }
      if abs(d * c - 1) < 1e-15 { break }
    }
    return result
  }
}
