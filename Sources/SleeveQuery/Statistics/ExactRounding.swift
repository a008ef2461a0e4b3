/// Exact arithmetic on integers, rounded to a `Double` once at the end: the one home for every
/// figure that divides or interpolates integer inputs (means of nanosecond durations, expected
/// counts of a split, the Hodges-Lehmann shift).
///
/// Each result is the exact rational value correctly rounded to the nearest `Double` (ties to
/// even), as Python's `float(Fraction(n, d))` gives it; nothing is rounded before that final
/// step, so `2^62 + 2,000 × 1,000` over 2,001 is 2304690663882752.5 whatever order the
/// durations were summed in. Inputs are integers of up to 128 bits; nothing traps.
///
/// ```swift
/// ExactRounding.quotient(Int128(1) << 62 + 2_000_000, 2_001)   // 2304690663882752.5
/// ExactRounding.interpolated(from: 3, to: 4, at: 0.5)           // 3.5
/// ```
enum ExactRounding {
  /// `numerator / denominator`, correctly rounded; `denominator` must be above 0.
  static func quotient(_ numerator: Int128, _ denominator: UInt64) -> Double {
    precondition(denominator > 0, "quotient by zero")
    let (whole, remainder) = numerator.magnitude.quotientAndRemainder(
      dividingBy: UInt128(denominator))
    let magnitude = rounded(whole: whole, remainder: remainder, denominator: UInt128(denominator))
    return numerator < 0 ? -magnitude : magnitude
  }

  /// `low + fraction × (high − low)`, the interpolation of ``Percentile``, computed exactly
  /// (`fraction`, in 0..<1, is m · 2^-k as every `Double` is) and correctly rounded, for every
  /// fraction of at most 60 bits (k ≤ 60: every fraction of a rank of 1 or more, and 0.5).
  /// `low` and `high` must lie within ±2^65 (differences of `Int64`s do).
  static func interpolated(from low: Int128, to high: Int128, at fraction: Double) -> Double {
    precondition(fraction >= 0 && fraction < 1, "interpolation fraction outside 0..<1")
    guard fraction != 0, low != high else { return Double(low) }
    let k = Double.significandBitCount - Int(fraction.exponent)
    guard k <= 60, fraction.isNormal else {
      // A fraction below 2^-7 with more than 60 bits (the rank, below 1, of a tiny
      // percentile): the product rounded, then the sum, as numpy interpolates.
      return Double(low) + fraction * Double(high - low)
    }
    let m = Int128(fraction.significandBitPattern | 1 << UInt64(Double.significandBitCount))
    // |low · 2^k| < 2^126 and |m · (high − low)| < 2^53 · 2^66 = 2^119: the value is one
    // exact integer over 2^k.
    return scaled(Double((low << k) + m * (high - low)), by: -k)
  }

  /// whole + remainder / denominator (0 ≤ remainder < denominator ≤ 2^65), correctly rounded.
  ///
  /// The value is brought to at least 56 significant bits by long division, 63 bits at a
  /// time; an odd last bit then stands for whatever the division left over. With three or
  /// more bits below the `Double`'s 53, that bit can neither make nor break a tie, so
  /// converting the integer rounds exactly as the value would.
  private static func rounded(whole: UInt128, remainder: UInt128, denominator: UInt128)
    -> Double
  {
    var whole = whole
    var remainder = remainder
    var exponent = 0
    while whole < 1 << 55 && remainder != 0 {
      // whole < 2^55 and remainder < 2^65: both shifts stay below 2^128.
      let step = 62
      let (more, left) = (remainder << step).quotientAndRemainder(dividingBy: denominator)
      whole = whole << step + more
      remainder = left
      exponent -= step
    }
    return scaled(Double(whole | (remainder != 0 ? 1 : 0)), by: exponent)
  }

  /// `value · 2^exponent`, exact for the exponents above (results far from subnormal).
  private static func scaled(_ value: Double, by exponent: Int) -> Double {
    exponent == 0 ? value : value * Double(sign: .plus, exponent: exponent, significand: 1)
  }
}
