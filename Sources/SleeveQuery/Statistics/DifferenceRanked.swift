/// A sample value whose pairwise differences ``PairwiseDifferences`` ranks: how two values are
/// differenced, how a difference maps to an unsigned key in the same order (for bisection), and
/// how a percentile between two differences is interpolated.
protocol DifferenceRanked: Comparable, Sendable {
  /// A difference of two values, never rounded past what the values themselves carry.
  associatedtype Difference: Comparable

  /// `x − y`.
  static func difference(_ x: Self, _ y: Self) -> Difference
  /// `difference`'s place in the order of differences, as an unsigned key.
  static func orderKey(of difference: Difference) -> UInt128
  /// The difference at order key `key` (the inverse of ``orderKey(of:)``).
  static func difference(ofOrderKey key: UInt128) -> Difference
  /// `low + fraction × (high − low)` as a `Double` (``Percentile/between(_:_:at:)``'s
  /// definition); `low` itself when `fraction` is 0.
  static func interpolated(from low: Difference, to high: Difference, at fraction: Double)
    -> Double
}

/// Raw durations: differences are exact in `Int128` and interpolated exactly, rounded once
/// (``ExactRounding/interpolated(from:to:at:)``).
extension Int64: DifferenceRanked {
  static func difference(_ x: Int64, _ y: Int64) -> Int128 { Int128(x) - Int128(y) }

  static func orderKey(of difference: Int128) -> UInt128 {
    UInt128(bitPattern: difference) ^ 1 << 127
  }

  static func difference(ofOrderKey key: UInt128) -> Int128 {
    Int128(bitPattern: key ^ 1 << 127)
  }

  static func interpolated(from low: Int128, to high: Int128, at fraction: Double) -> Double {
    ExactRounding.interpolated(from: low, to: high, at: fraction)
  }
}

/// Summary histograms' bucket values: differences in `Double` (the values are approximations
/// already), ordered by the 64-bit order of `Double`s (−∞ … −0, +0 … +∞); a zero difference
/// is +0, as a subtraction of equal values gives.
extension Double: DifferenceRanked {
  static func difference(_ x: Double, _ y: Double) -> Double { x - y }

  static func orderKey(of difference: Double) -> UInt128 {
    let bits = difference.bitPattern
    return UInt128(bits >> 63 == 1 ? ~bits : bits | 1 << 63)
  }

  static func difference(ofOrderKey key: UInt128) -> Double {
    let bits = UInt64(truncatingIfNeeded: key)
    return Double(bitPattern: bits >> 63 == 1 ? bits & ~(1 << 63) : ~bits)
  }

  static func interpolated(from low: Double, to high: Double, at fraction: Double) -> Double {
    // Bisection finds −0 before +0 (they compare equal): a zero difference is +0.
    let value = fraction == 0 ? low : Percentile.between(low, high, at: fraction)
    return value == 0 ? 0 : value
  }
}
