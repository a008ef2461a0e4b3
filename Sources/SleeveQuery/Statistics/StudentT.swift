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

  /// The t with P(T > t) = `tail` (scipy's `t.isf`), found by bisection on ``survival(_:degrees:)``
  /// to a relative width of 1e-15: +∞ at 0, NaN outside 0…1.
  static func inverseSurvival(_ tail: Double, degrees: Double) -> Double {
    guard tail > 0, tail < 1, degrees > 0 else { return tail == 0 ? .infinity : .nan }
    if tail > 0.5 { return -inverseSurvival(1 - tail, degrees: degrees) }
    if tail == 0.5 { return 0 }
    var low = 0.0
    var high = 1.0
    while survival(high, degrees: degrees) > tail && high < 1e300 { high *= 2 }
    for _ in 0..<2_000 {
      let middle = (low + high) / 2
      if survival(middle, degrees: degrees) > tail { low = middle } else { high = middle }
      if high - low <= 1e-15 * high { break }
    }
    return (low + high) / 2
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

  /// The continued fraction 1 / (1 + d₁ / (1 + d₂ / …)) of I_x(a, b), to a relative change
  /// of 1e-16 or 1,000 terms.
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
      if abs(d * c - 1) < 1e-16 { break }
    }
    return result
  }
}
